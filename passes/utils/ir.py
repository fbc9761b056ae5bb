"""Where an op or a value sits: its nearest ancestor of a kind, its function; ops
left unused erased; the linear tile id."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, UnknownLoc
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ktc.dialects.ktdp import GetComputeTileIdOp

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


def calls_by_callee(root: Operation) -> dict[str, list[CallOp]]:
    """The ``func.call``s under ``root``, by the name of the function they call."""
    calls: dict[str, list[CallOp]] = {}
    for op in root.walk():
        if isinstance(op, CallOp):
            calls.setdefault(op.callee.root_reference.data, []).append(op)
    return calls


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


def linear_tile_id(at: Operation, grid: Sequence[int]) -> SSAValue:
    """The linear id of the executing tile (x fastest), computed before ``at`` (the
    ops take its location)."""
    coords = GetComputeTileIdOp.build(result_types=[[IndexType()] * len(grid)])
    ops: list[Operation] = [coords]
    linear: SSAValue = coords.results[0]
    stride = 1
    for size, coord in zip(grid[:-1], coords.results[1:]):
        stride *= size
        factor = arith.ConstantOp.from_int_and_width(stride, IndexType())
        scaled = arith.MuliOp(coord, factor)
        total = arith.AddiOp(linear, scaled)
        ops += [factor, scaled, total]
        linear = total.result
    for op in ops:
        op.location = at.location
    Rewriter.insert_op(ops, InsertPoint.before(at))
    return linear


def locate(op: Operation, location) -> None:
    """``location`` on ``op`` and every op inside it that has none (the source
    position a pass's new ops report, down to the instructions they become)."""
    for inner in op.walk():
        if isinstance(inner.location, UnknownLoc):
            inner.location = location
