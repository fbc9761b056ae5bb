"""Blocks of device memory that several tiles of a grid read identically.

A copy's start in device memory is an index expression over the tile id, constants,
launch arguments and the indices of the loops around it. Evaluated per tile of the grid
with the tile id a constant and every other leaf a symbol of its own, it is an affine
expression over those symbols; two tiles whose expressions agree read the same block at
every iteration of the loops (every tile runs the same iterations: the program is
SPMD). ``reader_groups`` groups the tiles so; a start this arithmetic does not cover
(a product of two leaves, a value loaded from memory) groups no tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr

from ktc.dialects.ktdp import GetComputeTileIdOp
from ktc.passes.analysis.distributed import tile_coordinates
from ktc.passes.utils.values import INTEGER_CASTS, INTEGER_OPS

_LINEAR = {op: INTEGER_OPS[op] for op in (arith.AddiOp, arith.SubiOp)}
"""The integer ops of two affine operands that stay affine."""


def symbolic(value: SSAValue, coordinates: Sequence[int],
             leaves: dict[SSAValue, int]) -> AffineExpr | None:
    """``value`` as an affine expression on the tile of grid ``coordinates``: block
    arguments (loop indices, launch arguments) are dimensions numbered in ``leaves``
    (which gains the new ones); None when it is not affine in them."""
    if isinstance(value, BlockArgument):
        return AffineExpr.dimension(leaves.setdefault(value, len(leaves)))
    op = value.owner
    if isinstance(op, arith.ConstantOp):
        return AffineExpr.constant(op.value.value.data) if isinstance(op.value, IntegerAttr) else None
    if isinstance(op, GetComputeTileIdOp):
        position = op.results.index(value)
        return AffineExpr.constant(coordinates[position]) if position < len(coordinates) else None
    operands = [symbolic(operand, coordinates, leaves) for operand in op.operands]
    if None in operands:
        return None
    if isinstance(op, INTEGER_CASTS):
        return operands[0]
    if type(op) in _LINEAR:
        return _LINEAR[type(op)](*operands)
    if isinstance(op, arith.MuliOp):
        return _product(*operands)
    if isinstance(op, affine.ApplyOp):
        expr = op.map.data.results[0]
        return expr.replace_dims_and_symbols(operands, []) if expr.is_pure_affine() else None
    return None


def _product(a: AffineExpr, b: AffineExpr) -> AffineExpr | None:
    """``a * b`` when one of them is a constant (so the product stays affine)."""
    return a * b if any(isinstance(e, AffineConstantExpr) for e in (a, b)) else None


def reader_groups(start: SSAValue, grid: Sequence[int]) -> list[list[int]] | None:
    """The tiles of ``grid`` (linear ids, x fastest) grouped by the block a copy at
    ``start`` reads: those whose start is the same expression of the loop indices and
    launch arguments, ascending, groups in order of their first tile; None when the
    start is not affine in them on some tile."""
    keys: dict[str, list[int]] = {}
    for tile in range(prod(grid)):
        expr = symbolic(start, tile_coordinates(tuple(grid), tile), {})
        if expr is None:
            return None
        keys.setdefault(str(expr), []).append(tile)
    return list(keys.values())
