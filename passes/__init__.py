"""ktc's passes, one module per pass, registered lazily by name.

``PASSES`` maps a pass name to ``(module, class)``; ``pass_factories`` gives the
lazy factories ``ktc-opt`` registers.
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

PASSES: dict[str, tuple[str, str]] = {}


def _load(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    return lambda: getattr(import_module(f"ktc.passes.{module}"), cls)


def pass_factories() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _load(module, cls) for name, (module, cls) in PASSES.items()}
