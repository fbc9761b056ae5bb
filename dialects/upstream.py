"""Upstream dialects as real KTIR writes them, where xDSL's own differ.

``OVERRIDES`` maps a dialect name to a factory of a replacement ``Dialect`` that
ktc registers instead of xDSL's. The installed xDSL is never edited.
"""

from collections.abc import Callable

from xdsl.ir import Dialect

OVERRIDES: dict[str, Callable[[], Dialect]] = {}
