"""The integer an index expression has, folded from constants and the compute tile
id (``evaluate``): what ``convert-ktdf-to-dfir`` makes a per-core constant of and
``reduction-dim-chunking`` checks tile by tile; an affine expression folded with the
integer operations or any others (``fold_affine``); the float a scalar constant holds
(``float_constant``)."""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from ktc.dialects.ktdf import DeriveSizeOp, LinearizeIndexOp, TileTableOp
from ktc.dialects.ktdp import GetComputeTileIdOp
from ktc.dialects.source import BIT_FORMATS

T = TypeVar("T")

INTEGER_OPS: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b,
    arith.DivSIOp: lambda a, b: int(a / b),
    arith.RemUIOp: lambda a, b: a % b,
    arith.RemSIOp: lambda a, b: a - int(a / b) * b,
    arith.CeilDivUIOp: lambda a, b: -(-a // b),
    arith.CeilDivSIOp: lambda a, b: -(-a // b),
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
    arith.MinUIOp: min,
    arith.MaxUIOp: max,
}
"""Integer arith ops whose value ``evaluate`` computes, with their meaning."""

INTEGER_CASTS = (arith.IndexCastOp,)
"""Casts between integer types, which keep the value."""


def evaluate(value: SSAValue, tile_ids: Sequence[int]) -> int | None:
    """The value of an index expression given the tile id results, or None."""
    if isinstance(value, BlockArgument):
        return None
    op = value.owner
    if isinstance(op, arith.ConstantOp):
        attr = op.value
        return attr.value.data if isinstance(attr, IntegerAttr) else None
    if isinstance(op, GetComputeTileIdOp):
        return tile_ids[op.results.index(value)] if len(tile_ids) >= len(op.results) else None
    operands = [evaluate(operand, tile_ids) for operand in op.operands]
    if None in operands:
        return None
    if type(op) in INTEGER_OPS:
        if isinstance(op, (arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp,
                           arith.CeilDivUIOp, arith.CeilDivSIOp, arith.FloorDivSIOp)) and operands[1] == 0:
            return None
        return INTEGER_OPS[type(op)](*operands)
    if isinstance(op, INTEGER_CASTS):
        return operands[0]
    if isinstance(op, affine.ApplyOp):
        return affine_value(op.map.data.results[0], operands, [])
    if isinstance(op, LinearizeIndexOp):
        half = len(operands) // 2
        return sum(iv * stride for iv, stride in zip(operands[:half], operands[half:]))
    if isinstance(op, DeriveSizeOp):
        return derive_size_value(operands)
    if isinstance(op, TileTableOp):
        values = op.values.get_values()
        return values[operands[0]] if 0 <= operands[0] < len(values) else None
    return None


def float_constant(value: SSAValue) -> float | None:
    """The float a scalar holds when it is an ``arith.constant`` or the
    ``arith.bitcast`` of an integer constant (an IEEE type's bit pattern); else None."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, FloatAttr):
        return op.value.value.data
    if not (isinstance(op, arith.BitcastOp) and isinstance(op.result.type, AnyFloat)):
        return None
    bits, width = evaluate(op.input, ()), op.result.type.bitwidth
    if bits is None or width not in BIT_FORMATS:
        return None
    return struct.unpack(BIT_FORMATS[width], (bits % 2 ** width).to_bytes(width // 8, "little"))[0]


def derive_size_value(operands: Sequence[int]) -> int:
    """``ktdf.tiling.derive_size``: min(innermost tile, max(total - start, 0))."""
    levels = (len(operands) - 1) // 2
    ivs, sizes, total = operands[:levels], operands[levels:2 * levels], operands[-1]
    start = sum(iv * size for iv, size in zip(ivs, sizes))
    return min(sizes[-1], max(total - start, 0))


def fold_affine(expr: AffineExpr, dims: Sequence[T], symbols: Sequence[T],
                combine: Mapping[AffineBinaryOpKind, Callable[[T, T], T]]) -> T | int:
    """An affine expression over ``dims`` and ``symbols``, each binary operation done
    by ``combine`` (integers, or ops that compute them in a program)."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = fold_affine(expr.lhs, dims, symbols, combine)
    rhs = fold_affine(expr.rhs, dims, symbols, combine)
    return combine[expr.kind](lhs, rhs)


INTEGER_AFFINE: dict[AffineBinaryOpKind, Callable[[int, int], int]] = {
    AffineBinaryOpKind.Add: operator.add,
    AffineBinaryOpKind.Mul: operator.mul,
    AffineBinaryOpKind.Mod: operator.mod,
    AffineBinaryOpKind.FloorDiv: operator.floordiv,
    AffineBinaryOpKind.CeilDiv: lambda a, b: -(-a // b),
}
"""What the affine operations are on integers."""


def affine_value(expr: AffineExpr, dims: Sequence[int], symbols: Sequence[int]) -> int:
    """An affine expression evaluated on integers."""
    return fold_affine(expr, dims, symbols, INTEGER_AFFINE)
