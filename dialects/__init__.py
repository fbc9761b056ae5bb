"""The dialects ktc reads and writes, and the one context that knows them all.

ktc's own dialects (``ktdp``, ``spyreop``, ``ktdf``, ``ktdf_arch``, ``dfir``) each
live in a module named like the dialect and export a ``Dialect`` object under the
upper-cased name (``ktc.dialects.ktdp.KTDP``). Upstream dialects come from xDSL;
where xDSL cannot read what real KTIR uses, ``ktc.dialects.upstream`` supplies a
replacement dialect object. Everything is loaded lazily.
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.ir import Dialect

KTC_DIALECTS = ("ktdp", "spyreop", "ktdf", "ktdf_arch", "dfir")

UNPREFIXED_ATTRIBUTES = {"loop_type": "ktdf"}
"""Discardable attributes that a ktc dialect declares without its prefix (IBM's
``loop_type`` on ``scf.for``), by dialect: the module verifier loads that dialect's
``verify_attributes`` for them as it does for a prefixed name."""
UPSTREAM_DIALECTS = (
    "builtin",
    "func",
    "arith",
    "math",
    "linalg",
    "scf",
    "tensor",
    "memref",
    "affine",
    "cf",
    "pdl",
)


def _ktc_dialect(name: str) -> Callable[[], Dialect]:
    return lambda: getattr(import_module(f"ktc.dialects.{name}"), name.upper())


def dialect_factories() -> dict[str, Callable[[], Dialect]]:
    """Name -> lazy factory for every dialect ktc registers."""
    from ktc.dialects.upstream import OVERRIDES

    upstream = get_all_dialects()
    factories = {name: OVERRIDES.get(name, upstream[name]) for name in UPSTREAM_DIALECTS}
    factories.update({name: _ktc_dialect(name) for name in KTC_DIALECTS})
    return factories


def context(allow_unregistered: bool = False) -> Context:
    """A fresh context with every ktc and upstream dialect registered (lazily)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in dialect_factories().items():
        ctx.register_dialect(name, factory)
    return ctx
