"""The values an index expression of a program can take (``Ranges.of``): an interval
``(lo, hi)`` from constants, the compute tile id (``0 .. grid - 1``), ``scf.for``
indices (``lb .. ub - 1``), a program's arguments (the values at every call of it
in the module) and integer arithmetic on them, for every tile or for one tile of the
grid (``Ranges(module, tile)``); None when unknown (a launch argument,
a value loaded from memory). Whether a tile stays inside its view's coordinate set for
every value of its indices (``tile_inside``) follows: ``lower-ktdp-views`` masks the
views of those that may not, ``stream-copies`` streams only copies whose tiles do."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import (ConstructAccessTileOp, ConstructMemoryViewOp, GetComputeTileIdOp,
                               grid_of)
from ktc.passes.utils.affine import box_bounds
from ktc.passes.utils.ir import calls_by_callee, enclosing_function
from ktc.passes.utils.values import fold_affine

Interval = tuple[int, int]


class Ranges:
    """Intervals of the index values of one module's programs."""

    def __init__(self, module: ModuleOp, tile: Sequence[int] | None = None):
        self.tile = tile
        """The tile id's coordinates when the intervals are those of one tile (None:
        of every tile of the grid)."""
        self.calls = calls_by_callee(module)
        self.known: dict[SSAValue, Interval | None] = {}

    def of(self, value: SSAValue) -> Interval | None:
        if value not in self.known:
            self.known[value] = None
            self.known[value] = self._of(value)
        return self.known[value]

    def expr(self, expr: AffineExpr, dims: Sequence[Interval | None],
             symbols: Sequence[Interval | None]) -> Interval | None:
        """The interval of an affine expression over intervals."""
        return _interval(fold_affine(expr, dims, symbols, INTERVAL_AFFINE))

    def _of(self, value: SSAValue) -> Interval | None:
        if isinstance(value, BlockArgument):
            return self._argument(value)
        op = value.owner
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            return (attr.value.data,) * 2 if isinstance(attr, IntegerAttr) else None
        if isinstance(op, GetComputeTileIdOp) and self.tile is not None:
            position = op.results.index(value)
            return (self.tile[position],) * 2 if position < len(self.tile) else None
        if isinstance(op, GetComputeTileIdOp):
            kernel = enclosing_function(op)
            grid = grid_of(kernel) if kernel is not None else None
            position = op.results.index(value)
            return (0, grid[position] - 1) if grid and position < len(grid) else None
        if isinstance(op, affine.ApplyOp):
            amap = op.map.data
            operands = [self.of(operand) for operand in op.operands]
            return self.expr(amap.results[0], operands[:amap.num_dims], operands[amap.num_dims:])
        if isinstance(op, arith.IndexCastOp):
            return self.of(op.input)
        return self._binary(op)

    def _binary(self, op: Operation) -> Interval | None:
        combine = INTERVAL_ARITH.get(type(op))
        if combine is None:
            return None
        return combine(*(self.of(operand) for operand in op.operands))

    def _argument(self, value: BlockArgument) -> Interval | None:
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp) and value.index == 0:
            lower, upper, step = self.of(parent.lb), self.of(parent.ub), self.of(parent.step)
            if lower is None or upper is None or step is None or step[0] < 1:
                return None
            last = upper[1] - 1
            if lower[0] == lower[1] and step[0] == step[1] and last >= lower[0]:
                last = lower[0] + (last - lower[0]) // step[0] * step[0]
            return lower[0], max(lower[0], last)
        if isinstance(parent, func.FuncOp):
            calls = self.calls.get(parent.sym_name.data, [])
            ranges = [self.of(call.arguments[value.index]) for call in calls]
            if not ranges or None in ranges:
                return None
            return min(r[0] for r in ranges), max(r[1] for r in ranges)
        return None


def _interval(value: Interval | int | None) -> Interval | None:
    """A constant of an affine expression as the interval it is."""
    return (value, value) if isinstance(value, int) else value


def _known(combine: Callable[[Interval, Interval], Interval | None]):
    """``combine`` on intervals (constants taken as theirs), None when either is unknown."""
    def on(lhs: Interval | int | None, rhs: Interval | int | None) -> Interval | None:
        lhs, rhs = _interval(lhs), _interval(rhs)
        return None if lhs is None or rhs is None else combine(lhs, rhs)
    return on


def _non_negative(combine: Callable[[Interval, Interval], Interval | None]):
    """``combine`` for arith's divisions and remainders, whose meaning equals the affine
    one's for a dividend that is not negative."""
    return lambda lhs, rhs: combine(lhs, rhs) if lhs[0] >= 0 else None


def _sum(lhs: Interval, rhs: Interval) -> Interval:
    return lhs[0] + rhs[0], lhs[1] + rhs[1]


def _product(lhs: Interval, rhs: Interval) -> Interval:
    corners = [a * b for a in lhs for b in rhs]
    return min(corners), max(corners)


def _divided(kind: AffineBinaryOpKind, lhs: Interval, rhs: Interval) -> Interval | None:
    """``lhs`` floordiv, ceildiv or mod a positive constant ``rhs``."""
    if rhs[0] != rhs[1] or rhs[0] < 1:
        return None
    divisor = rhs[0]
    if kind == AffineBinaryOpKind.FloorDiv:
        return lhs[0] // divisor, lhs[1] // divisor
    if kind == AffineBinaryOpKind.CeilDiv:
        return -(-lhs[0] // divisor), -(-lhs[1] // divisor)
    if lhs[0] >= 0 and lhs[1] < divisor:
        return lhs
    return 0, divisor - 1


INTERVAL_AFFINE = {
    AffineBinaryOpKind.Add: _known(_sum),
    AffineBinaryOpKind.Mul: _known(_product),
    **{kind: _known(partial(_divided, kind)) for kind in (
        AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.Mod)},
}
"""The affine operations on intervals (``fold_affine``'s ``combine``)."""

_FLOOR_DIV = _known(_non_negative(partial(_divided, AffineBinaryOpKind.FloorDiv)))
_CEIL_DIV = _known(_non_negative(partial(_divided, AffineBinaryOpKind.CeilDiv)))
_MOD = _known(_non_negative(partial(_divided, AffineBinaryOpKind.Mod)))

INTERVAL_ARITH = {
    arith.AddiOp: _known(_sum),
    arith.MuliOp: _known(_product),
    arith.SubiOp: _known(lambda lhs, rhs: (lhs[0] - rhs[1], lhs[1] - rhs[0])),
    arith.MinSIOp: _known(lambda lhs, rhs: (min(lhs[0], rhs[0]), min(lhs[1], rhs[1]))),
    arith.MaxSIOp: _known(lambda lhs, rhs: (max(lhs[0], rhs[0]), max(lhs[1], rhs[1]))),
    arith.FloorDivSIOp: _FLOOR_DIV, arith.DivUIOp: _FLOOR_DIV,
    arith.CeilDivSIOp: _CEIL_DIV, arith.CeilDivUIOp: _CEIL_DIV,
    arith.RemUIOp: _MOD, arith.RemSIOp: _MOD,
}
"""The integer arith ops ``Ranges`` follows, on the intervals of their operands."""


def tile_inside(tile: ConstructAccessTileOp, view: ConstructMemoryViewOp,
                ranges: Ranges) -> bool:
    """Whether every coordinate ``tile`` can name lies in the view's coordinate set
    (a box ``0 <= d_j < n_j``): its start is at least 0 and its end at most the
    least ``n_j`` in every dimension, for every value its indices can take. A start
    known to go below 0 is an error: masking clamps a block at the box's upper ends
    only."""
    bounds = box_bounds(view.coordinate_set.data)
    if bounds is None:
        raise KtcError("the memory view's coordinate set is not a box from 0", where(view))
    base_map = tile.base_map.data
    indices = [ranges.of(index) for index in tile.indices]
    sizes = [ranges.of(size) for size in view.sizes]
    shape = tile.result.type.get_shape()
    for dim, (start, bound, extent) in enumerate(zip(base_map.results, bounds, shape)):
        first = ranges.expr(start, indices[:base_map.num_dims], indices[base_map.num_dims:])
        least = ranges.expr(bound, [], sizes)
        if first is not None and first[0] < 0:
            raise KtcError(
                f"the access tile starts as low as {first[0]} in dimension {dim}; the "
                "compiler masks tiles that reach past a view's upper bounds, not below 0",
                where(tile),
            )
        if first is None or least is None or first[1] + extent > least[0]:
            return False
    return True
