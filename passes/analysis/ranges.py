"""The values an index expression of a program can take (``Ranges.of``): an interval
``(lo, hi)`` from constants, the compute tile id (``0 .. grid - 1``), ``scf.for``
indices (``lb .. ub - 1``), a program's arguments (the values at every call of it
in the module) and integer arithmetic on them; None when unknown (a launch argument,
a value loaded from memory). ``lower-ktdp-views`` reads it to know whether a tile
stays inside its view's coordinate set."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from ktc.dialects.ktdp import GetComputeTileIdOp, grid_of
from ktc.passes.utils.ir import enclosing_function

Interval = tuple[int, int]


class Ranges:
    """Intervals of the index values of one module's programs."""

    def __init__(self, module: ModuleOp):
        self.calls: dict[str, list[func.CallOp]] = {}
        for op in module.walk():
            if isinstance(op, func.CallOp):
                self.calls.setdefault(op.callee.root_reference.data, []).append(op)
        self.known: dict[SSAValue, Interval | None] = {}

    def of(self, value: SSAValue) -> Interval | None:
        if value not in self.known:
            self.known[value] = None
            self.known[value] = self._of(value)
        return self.known[value]

    def expr(self, expr: AffineExpr, dims: Sequence[Interval | None],
             symbols: Sequence[Interval | None]) -> Interval | None:
        """The interval of an affine expression over intervals."""
        if isinstance(expr, AffineConstantExpr):
            return expr.value, expr.value
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineSymExpr):
            return symbols[expr.position]
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs, rhs = self.expr(expr.lhs, dims, symbols), self.expr(expr.rhs, dims, symbols)
        if lhs is None or rhs is None:
            return None
        kind = expr.kind
        if kind == AffineBinaryOpKind.Add:
            return lhs[0] + rhs[0], lhs[1] + rhs[1]
        if kind == AffineBinaryOpKind.Mul:
            return _product(lhs, rhs)
        return _divided(kind, lhs, rhs)

    def _of(self, value: SSAValue) -> Interval | None:
        if isinstance(value, BlockArgument):
            return self._argument(value)
        op = value.owner
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            return (attr.value.data,) * 2 if isinstance(attr, IntegerAttr) else None
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
        kinds = {
            arith.AddiOp: AffineBinaryOpKind.Add, arith.MuliOp: AffineBinaryOpKind.Mul,
            arith.FloorDivSIOp: AffineBinaryOpKind.FloorDiv, arith.DivUIOp: AffineBinaryOpKind.FloorDiv,
            arith.CeilDivSIOp: AffineBinaryOpKind.CeilDiv, arith.CeilDivUIOp: AffineBinaryOpKind.CeilDiv,
            arith.RemUIOp: AffineBinaryOpKind.Mod, arith.RemSIOp: AffineBinaryOpKind.Mod,
        }
        if not isinstance(op, (*kinds, arith.SubiOp, arith.MinSIOp, arith.MaxSIOp)):
            return None
        lhs, rhs = (self.of(operand) for operand in op.operands)
        if lhs is None or rhs is None:
            return None
        if isinstance(op, arith.SubiOp):
            return lhs[0] - rhs[1], lhs[1] - rhs[0]
        if isinstance(op, arith.MinSIOp):
            return min(lhs[0], rhs[0]), min(lhs[1], rhs[1])
        if isinstance(op, arith.MaxSIOp):
            return max(lhs[0], rhs[0]), max(lhs[1], rhs[1])
        if type(op) in (arith.AddiOp, arith.MuliOp):
            return self.expr(AffineBinaryOpExpr(kinds[type(op)], AffineExpr.dimension(0),
                                                AffineExpr.dimension(1)), [lhs, rhs], [])
        if lhs[0] < 0:
            return None
        return _divided(kinds[type(op)], lhs, rhs)

    def _argument(self, value: BlockArgument) -> Interval | None:
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp) and value.index == 0:
            lower, upper, step = self.of(parent.lb), self.of(parent.ub), self.of(parent.step)
            if lower is None or upper is None or step is None or step[0] < 1:
                return None
            return lower[0], max(lower[0], upper[1] - 1)
        if isinstance(parent, func.FuncOp):
            calls = self.calls.get(parent.sym_name.data, [])
            ranges = [self.of(call.arguments[value.index]) for call in calls]
            if not ranges or None in ranges:
                return None
            return min(r[0] for r in ranges), max(r[1] for r in ranges)
        return None


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
