"""``scf.for`` loops: trip counts, normalization to 0 by 1, tiling, empty copies of
a nest."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, Use
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import DeriveSizeOp, LinearizeIndexOp
from ktc.passes.utils.ir import defined_inside


def trip_count(lower: int, upper: int, step: int) -> int:
    """Iterations of a loop from ``lower`` below ``upper`` by ``step`` (>= 1):
    ``ceil((upper - lower) / step)``, 0 when ``upper <= lower``."""
    return max(0, -((lower - upper) // step))


def static_trip_count(loop: scf.ForOp) -> int | None:
    """Iterations of ``loop`` when its bounds are constants (and its step positive)."""
    lb, ub, step = (const_evaluate_operand(value) for value in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step < 1:
        return None
    return trip_count(lb, ub, step)


def is_normalized(loop: scf.ForOp) -> bool:
    """The loop starts at the constant 0 and steps by the constant 1."""
    return const_evaluate_operand(loop.lb) == 0 and const_evaluate_operand(loop.step) == 1


def empty_nest(bounds: Sequence[tuple[SSAValue, SSAValue, SSAValue]],
               like: Sequence[scf.ForOp]) -> list[scf.ForOp]:
    """Empty ``scf.for`` loops, outermost first, each inside the one before: loop
    ``k`` runs over ``bounds[k]`` (lower, upper, step) with the attributes of
    ``like[k]``; a body holds the next loop and its terminator, the innermost only
    its terminator."""
    loops: list[scf.ForOp] = []
    for (lower, upper, step), template in zip(bounds, like, strict=True):
        body = Block([scf.YieldOp()], arg_types=[IndexType()])
        loop = scf.ForOp(lower, upper, step, [], Region(body))
        loop.attributes.update(template.attributes)
        if loops:
            outer = loops[-1].body.block
            outer.insert_op_before(loop, outer.last_op)
        loops.append(loop)
    return loops


def remap_bounds(loops: Sequence[scf.ForOp], mapping: dict[SSAValue, SSAValue]) -> None:
    """Replace every bound of ``loops`` that ``mapping`` has a value for by it."""
    for loop in loops:
        for index in range(3):
            bound = loop.operands[index]
            loop.operands[index] = mapping.get(bound, bound)


# ---------------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------------


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


def _trip_count_ops(lb: SSAValue, ub: SSAValue, step: SSAValue) -> list[Operation]:
    """Ops computing ``ceil((ub - lb) / step)``, the last one giving it; one constant
    when every bound is. A negative count runs no iteration, as ``ub < lb`` did."""
    low, high, stride = (const_evaluate_operand(value) for value in (lb, ub, step))
    if low is not None and high is not None and stride is not None:
        return [_constant(trip_count(low, high, stride), ub.type)]
    ops: list[Operation] = [] if low == 0 else [arith.SubiOp(ub, lb)]
    extent = ops[-1].results[0] if ops else ub
    if stride != 1:
        ops.append(arith.CeilDivSIOp(extent, step))
    return ops


def _original_index(iv: SSAValue, lb: SSAValue, step: SSAValue) -> list[Operation]:
    """Ops computing ``lb + iv * step`` from the normalized ``iv``, the last one
    giving it (none is needed for a constant 0 or 1)."""
    ops: list[Operation] = []
    if const_evaluate_operand(step) != 1:
        ops.append(arith.MuliOp(iv, step))
    scaled = ops[-1].results[0] if ops else iv
    if const_evaluate_operand(lb) != 0:
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
    if (stride := const_evaluate_operand(step)) is not None and stride < 1:
        raise KtcError(f"'scf.for' step must be positive, got {stride}", where(loop))
    trip = _trip_count_ops(lb, ub, step)
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


# ---------------------------------------------------------------------------------
# Tiling
# ---------------------------------------------------------------------------------


def tile(nest: Sequence[scf.ForOp], sizes: Sequence[SSAValue]) -> None:
    """Tile a normalized perfect nest by ``sizes``, one per loop, defined before it.

    Tile loops run to ``ceildivui(N, size)``; the nest's own loops become the point
    loops inside them, running to ``derive_size``; each index they had, where used,
    is ``linearize_index`` of the tile and point indices."""
    outer, innermost = nest[0], nest[-1]
    counts = [arith.CeilDivUIOp(loop.ub, size) for loop, size in zip(nest, sizes)]
    Rewriter.insert_op(counts, InsertPoint.before(outer))
    tiles = empty_nest([(loop.lb, count.result, loop.step) for loop, count in zip(nest, counts)],
                       nest)
    tile_ivs = [loop.body.block.args[0] for loop in tiles]
    derived = [
        DeriveSizeOp([iv], [size], loop.ub) for iv, size, loop in zip(tile_ivs, sizes, nest)
    ]
    Rewriter.insert_op(tiles[0], InsertPoint.before(outer))
    outer.detach()
    Rewriter.insert_op([*derived, outer], InsertPoint.at_start(tiles[-1].body.block))
    body_start = InsertPoint.at_start(innermost.body.block)
    for loop, tile_iv, size, size_op in zip(nest, tile_ivs, sizes, derived):
        loop.operands[1] = size_op.result
        point_iv = loop.body.block.args[0]
        uses = list(point_iv.uses)
        if not uses:
            continue
        index = LinearizeIndexOp([tile_iv, point_iv], [size, loop.step])
        index.result.name_hint = point_iv.name_hint
        for use in uses:
            use.operation.operands[use.index] = index.result
        Rewriter.insert_op(index, body_start)
        body_start = InsertPoint.after(index)
