"""Where an op or a value sits: its nearest ancestor of a kind, its function; ops
left unused erased."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.traits import is_side_effect_free

T = TypeVar("T", bound=Operation)


def ancestor(op: Operation, kind: type[T] | tuple[type[T], ...]) -> T | None:
    """The nearest op strictly above ``op`` that is a ``kind``; None if none is."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, kind):
        parent = parent.parent_op()
    return parent


def enclosing_function(op: Operation) -> FuncOp | None:
    """The ``func.func`` that holds ``op``; None outside any function."""
    return ancestor(op, FuncOp)


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """``value`` is defined by ``op``, in one of its regions, or is one of their
    block arguments."""
    owner = value.owner
    anchor = owner if isinstance(owner, Operation) else owner.parent_op()
    return anchor is not None and op.is_ancestor(anchor)


def erase_unused(ops: Iterable[object]) -> None:
    """Erase those of ``ops`` that are ops in a block whose results nothing uses, then
    the ops without effects that only they used, and so on."""
    pending = [op for op in ops if isinstance(op, Operation)]
    while pending:
        op = pending.pop(0)
        if op.parent is None or any(result.uses for result in op.results):
            continue
        operands = [value.owner for value in op.operands if isinstance(value.owner, Operation)]
        op.detach()
        op.erase()
        pending += [owner for owner in operands if is_side_effect_free(owner)]
