"""Upstream dialects as real KTIR writes them, where xDSL's own differ.

``OVERRIDES`` maps a dialect name to a factory of a replacement ``Dialect`` that
ktc registers instead of xDSL's. The installed xDSL is never edited: a replacement
dialect is xDSL's, with some ops swapped for subclasses and some added. Each lives in
a module named like the dialect (``arith``, ``linalg``, ``scf``, ``affine``: what each changes is
said there), imported when its dialect is first used, so a kernel without linalg never
loads xDSL's linalg. The ops are also reachable from here by name
(``from ktc.dialects.upstream import ForOp``).
"""

from collections.abc import Callable, Sequence
from importlib import import_module

from xdsl.ir import Dialect, Operation

OPS = {
    "linalg": ("ReduceOp", "GenericOp", "BroadcastOp", "TransposeOp", "MatmulOp", "BatchMatmulOp"),
    "arith": ("CmpfOp", "SelectOp"),
    "scf": ("ForOp", "ExecuteRegionOp", "ParallelOp", "ForallOp", "InParallelOp"),
    "affine": ("ApplyOp", "MinOp", "LoadOp", "StoreOp", "VectorLoadOp", "VectorStoreOp"),
}
"""The op classes each replacement module defines, by dialect."""


def _module(dialect: str):
    return import_module(f"ktc.dialects.upstream.{dialect}")


def _factory(dialect: str) -> Callable[[], Dialect]:
    return lambda: _module(dialect).dialect()


OVERRIDES: dict[str, Callable[[], Dialect]] = {name: _factory(name) for name in OPS}


def replacing(base: Dialect, ops: Sequence[type[Operation]]) -> Dialect:
    """``base`` with ``ops`` in place of its ops of the same names (or added)."""
    replacements = {op.name: op for op in ops}
    kept = [op for op in base.operations if op.name not in replacements]
    return Dialect(base.name, [*kept, *ops], list(base.attributes))


def __getattr__(name: str) -> type[Operation]:
    for dialect, names in OPS.items():
        if name in names:
            return getattr(_module(dialect), name)
    raise AttributeError(f"module 'ktc.dialects.upstream' has no attribute '{name}'")
