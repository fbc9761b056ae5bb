"""``normalize-scf-for-loops``: every ``scf.for`` counts from 0 in steps of 1."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue, Use
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.diagnostics import KtcError, where


def constant_value(value: SSAValue) -> int | None:
    """The integer a value is, when an ``arith.constant`` defines it."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def is_normalized(loop: scf.ForOp) -> bool:
    """The loop starts at the constant 0 and steps by the constant 1."""
    return constant_value(loop.lb) == 0 and constant_value(loop.step) == 1


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """``value`` is defined by ``op``, in one of its regions, or is one of their
    block arguments."""
    owner = value.owner
    anchor = owner if isinstance(owner, Operation) else owner.parent_op()
    return anchor is not None and op.is_ancestor(anchor)


def _hoisting_point(loop: scf.ForOp) -> Operation:
    """The outermost of ``loop`` and its directly enclosing loops that none of its
    bounds is defined inside: new bounds computed before it keep perfect nests
    perfect."""
    bounds = (loop.lb, loop.ub, loop.step)
    point: Operation = loop
    while isinstance(parent := point.parent_op(), scf.ForOp):
        if any(defined_inside(bound, parent) for bound in bounds):
            break
        point = parent
    return point


def _constant(value: int, type_: Attribute) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, type_))


def _trip_count(lb: SSAValue, ub: SSAValue, step: SSAValue) -> list[Operation]:
    """Ops computing ``ceil((ub - lb) / step)``, the last one giving it; one constant
    when every bound is. A negative count runs no iteration, as ``ub < lb`` did."""
    low, high, stride = constant_value(lb), constant_value(ub), constant_value(step)
    if low is not None and high is not None and stride is not None:
        return [_constant(max(0, -((low - high) // stride)), ub.type)]
    ops: list[Operation] = [] if low == 0 else [arith.SubiOp(ub, lb)]
    extent = ops[-1].results[0] if ops else ub
    if stride != 1:
        ops.append(arith.CeilDivSIOp(extent, step))
    return ops


def _original_index(iv: SSAValue, lb: SSAValue, step: SSAValue) -> list[Operation]:
    """Ops computing ``lb + iv * step`` from the normalized ``iv``, the last one
    giving it (none is needed for a constant 0 or 1)."""
    ops: list[Operation] = []
    if constant_value(step) != 1:
        ops.append(arith.MuliOp(iv, step))
    scaled = ops[-1].results[0] if ops else iv
    if constant_value(lb) != 0:
        ops.append(arith.AddiOp(lb, scaled))
    return ops


def _uses_by_block(value: SSAValue) -> dict[Block, list[Use]]:
    """The uses of ``value`` by ops in blocks, grouped by block."""
    groups: dict[Block, list[Use]] = {}
    for use in value.uses:
        if (block := use.operation.parent_block()) is not None:
            groups.setdefault(block, []).append(use)
    return groups


def normalize(loop: scf.ForOp) -> bool:
    """Rewrite ``loop`` to count from 0 to its trip count in steps of 1, and
    recompute its original index just before its uses (once per block). The new
    bounds go before ``_hoisting_point``. Returns False when it already counted so;
    a constant step below 1 is an error."""
    if is_normalized(loop):
        return False
    lb, ub, step = loop.lb, loop.ub, loop.step
    if (stride := constant_value(step)) is not None and stride < 1:
        raise KtcError(f"'scf.for' step must be positive, got {stride}", where(loop))
    trip = _trip_count(lb, ub, step)
    zero, one = _constant(0, ub.type), _constant(1, ub.type)
    Rewriter.insert_op([zero, *trip, one], InsertPoint.before(_hoisting_point(loop)))
    loop.operands = [zero.result, trip[-1].results[0], one.result, *loop.iter_args]
    iv = loop.body.block.args[0]
    for block, uses in _uses_by_block(iv).items():
        users = {use.operation for use in uses}
        ops = _original_index(iv, lb, step)
        ops[-1].results[0].name_hint = iv.name_hint
        Rewriter.insert_op(ops, InsertPoint.before(next(op for op in block.ops if op in users)))
        for use in uses:
            use.operation.operands[use.index] = ops[-1].results[0]
    return True


@dataclass(frozen=True)
class NormalizeScfForLoops(ModulePass):
    """Rewrite every ``scf.for`` to start at 0 and step by 1 (IBM's
    normalize-scf-for-loops).

    Expects any IR; loops with ``iter_args`` too, bounds of any integer type.
    Produces each loop as ``scf.for %i = %c0 to %trips step %c1``, where
    ``%trips = ceildivsi(ub - lb, step)`` (folded to a constant when the bounds
    are constants) is computed above the enclosing loops it does not depend on,
    so that perfect nests stay perfect. Each block that used the old index gets
    ``lb + %i * step`` with ``arith.muli``/``arith.addi`` just before its first use.
    Attributes (``loop_type``) stay. Already normalized loops are left alone, so the
    pass is idempotent.
    """

    name = "normalize-scf-for-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            normalize(loop)
