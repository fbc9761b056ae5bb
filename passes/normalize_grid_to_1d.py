"""``normalize-grid-to-1d``: every grid is one flat dimension of tiles."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.dialects.ktdp import GetComputeTileIdOp, grid_of, set_grid


def coordinates(
    flat: SSAValue, grid: Sequence[int], count: int
) -> tuple[list[Operation], list[SSAValue]]:
    """Ops rebuilding the first ``count`` coordinates of a flat tile id in ``grid``,
    and the coordinates. x is fastest, as the reference interpreter numbers tiles
    (``ktc.sim.reference``): coordinate ``d`` is ``(flat / prod(grid[:d])) %
    grid[d]``, without a division by 1, without the remainder where the
    dimensions after ``d`` are all 1, and the constant 0 for a dimension of size
    1 or past the grid. One constant per value."""
    constants: dict[int, arith.ConstantOp] = {}
    ops: list[Operation] = []

    def index(value: int) -> SSAValue:
        if value not in constants:
            constants[value] = arith.ConstantOp(IntegerAttr(value, IndexType()))
            ops.append(constants[value])
        return constants[value].result

    values: list[SSAValue] = []
    for dim in range(count):
        if dim >= len(grid) or grid[dim] == 1:
            values.append(index(0))
            continue
        value = flat
        if (inner := math.prod(grid[:dim])) > 1:
            ops.append(quotient := arith.DivUIOp(value, index(inner)))
            value = quotient.result
        if math.prod(grid[dim + 1 :]) > 1:
            ops.append(rest := arith.RemUIOp(value, index(grid[dim])))
            value = rest.result
        values.append(value)
    return ops, values


def _flatten(op: GetComputeTileIdOp, grid: Sequence[int]) -> None:
    flat = GetComputeTileIdOp.build(result_types=[[IndexType()]], attributes=dict(op.attributes))
    ops, values = coordinates(flat.ids[0], grid, len(op.ids))
    Rewriter.replace_op(op, [flat, *ops], values)


@dataclass(frozen=True)
class NormalizeGridTo1D(ModulePass):
    """Flattens every kernel's and program's grid to one dimension.

    Expects functions with a ``grid = [a, b, ...]`` attribute (KTIR kernels,
    ScheduleIR programs); a function without one runs on a single tile.

    Produces ``grid = [a*b*...]``; every ``ktdp.get_compute_tile_id`` of a
    multi-dimensional grid, or with several results, becomes one that returns the
    flat id, followed by the coordinates it asked for rebuilt with ``arith.divui``
    / ``arith.remui``. Tiles are numbered as the reference interpreter numbers
    them, x fastest (``id = x + a*(y + b*z)``); IBM's pass makes the last
    coordinate fastest instead. As in KTIR, a tile id with fewer results than the
    grid has dimensions gives the first coordinates (one result on a 2-D grid is
    x), and a coordinate past the grid's rank is 0. A grid that is not a non-empty
    list of positive integers is an error. A 1-D grid is left as it is.
    """

    name = "normalize-grid-to-1d"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            grid = grid_of(func)
            for tile_id in [t for t in func.walk() if isinstance(t, GetComputeTileIdOp)]:
                if len(grid) > 1 or len(tile_id.ids) > 1:
                    _flatten(tile_id, grid)
            if len(grid) > 1:
                set_grid(func, [math.prod(grid)])
