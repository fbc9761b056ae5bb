"""Index values for ``convert-ktdf-to-dfir``: where each value of a schedule can be
computed, and how it reaches a DataflowIR program.

A scalar of the schedule (an address, an offset, a loop bound) depends on some of

- ``ARG``: the kernel's arguments, known to the host at launch;
- ``TILE``: the compute tile id, known per core when the kernel is built;
- ``IV``: induction variables and anything else only the running program knows.

``roots`` says which. The lowering turns a value with no root into a constant, one
that depends on the tile alone into a per-core constant (``evaluate`` of
``ktc.passes.utils.values`` per core, then a uniform map), one on arguments alone
into a symbol the host computes, and anything else into ``arith`` in the program,
recursively (``Program.value``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr
from xdsl.traits import is_side_effect_free

from ktc.dialects.ktdf import DeriveSizeOp, LinearizeIndexOp
from ktc.dialects.ktdp import GetComputeTileIdOp
from ktc.passes.utils.values import INTEGER_CASTS, INTEGER_OPS, fold_affine

ARG, TILE, IV = "arg", "tile", "iv"

Index = int | SSAValue
"""A scalar in a program: a Python int when it is a known constant."""

_EXPANDED = (affine.ApplyOp, DeriveSizeOp, LinearizeIndexOp)
"""Pure ops the lowering rewrites into arith."""

CLONED = {"arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi", "arith.remui",
          "arith.remsi", "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi", "arith.minsi",
          "arith.maxsi", "arith.minui", "arith.maxui", "arith.index_cast", "affine.apply",
          DeriveSizeOp.name, LinearizeIndexOp.name, "arith.cmpi"}
"""The ops a program computes its index values with (``Arith.clone``)."""


def is_scalar(value: SSAValue) -> bool:
    return isinstance(value.type, IndexType | IntegerType)


def roots(value: SSAValue, cache: dict[SSAValue, frozenset[str]]) -> frozenset[str]:
    """What ``value`` depends on: a subset of ``{ARG, TILE, IV}``. A pure op depends
    on what its operands depend on; anything else (a loop's block argument, an op
    with effects or regions) only the running program knows."""
    if value in cache:
        return cache[value]
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        from xdsl.dialects.func import FuncOp

        result = frozenset({ARG if isinstance(owner, FuncOp) else IV})
    else:
        op = value.owner
        if isinstance(op, arith.ConstantOp):
            result = frozenset()
        elif isinstance(op, GetComputeTileIdOp):
            result = frozenset({TILE})
        elif not op.regions and (is_side_effect_free(op) or type(op) in INTEGER_OPS):
            result = frozenset().union(*(roots(operand, cache) for operand in op.operands))
        else:
            result = frozenset({IV})
    cache[value] = result
    return result


class Arith:
    """Index arithmetic that folds constants and emits ``arith`` ops otherwise.

    ``emit`` appends an op where the program is being built; ``constant`` gives the
    SSA value of an integer constant.
    """

    def __init__(self, emit: Callable[[Operation], Operation], constant: Callable[[int], SSAValue]):
        self.emit = emit
        self.constant = constant

    def ssa(self, value: Index) -> SSAValue:
        return self.constant(value) if isinstance(value, int) else value

    def _binary(self, op: type[Operation], lhs: Index, rhs: Index) -> Index:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return INTEGER_OPS[op](lhs, rhs)
        return self.emit(op(self.ssa(lhs), self.ssa(rhs))).results[0]

    def add(self, lhs: Index, rhs: Index) -> Index:
        if lhs == 0:
            return rhs
        if rhs == 0:
            return lhs
        return self._binary(arith.AddiOp, lhs, rhs)

    def sub(self, lhs: Index, rhs: Index) -> Index:
        return lhs if rhs == 0 else self._binary(arith.SubiOp, lhs, rhs)

    def mul(self, lhs: Index, rhs: Index) -> Index:
        if 0 in (lhs, rhs):
            return 0
        if lhs == 1:
            return rhs
        if rhs == 1:
            return lhs
        return self._binary(arith.MuliOp, lhs, rhs)

    def div(self, lhs: Index, rhs: Index) -> Index:
        return lhs if rhs == 1 else self._binary(arith.FloorDivSIOp, lhs, rhs)

    def ceildiv(self, lhs: Index, rhs: Index) -> Index:
        return lhs if rhs == 1 else self._binary(arith.CeilDivSIOp, lhs, rhs)

    def rem(self, lhs: Index, rhs: Index) -> Index:
        return 0 if rhs == 1 else self._binary(arith.RemSIOp, lhs, rhs)

    def min(self, lhs: Index, rhs: Index) -> Index:
        return self._binary(arith.MinSIOp, lhs, rhs)

    def max(self, lhs: Index, rhs: Index) -> Index:
        return self._binary(arith.MaxSIOp, lhs, rhs)

    def compare(self, predicate: str, lhs: Index, rhs: Index) -> SSAValue:
        return self.emit(arith.CmpiOp(self.ssa(lhs), self.ssa(rhs), predicate)).results[0]

    def affine(self, expr: AffineExpr, dims: Sequence[Index], symbols: Sequence[Index]) -> Index:
        """An affine expression over program values."""
        return fold_affine(expr, dims, symbols, {
            AffineBinaryOpKind.Add: self.add,
            AffineBinaryOpKind.Mul: self.mul,
            AffineBinaryOpKind.Mod: self.rem,
            AffineBinaryOpKind.FloorDiv: self.div,
            AffineBinaryOpKind.CeilDiv: self.ceildiv,
        })

    def clone(self, op: Operation, operands: Sequence[Index]) -> Index:
        """``op`` (one of the ops ``roots`` follows) applied to program values."""
        if type(op) in INTEGER_OPS:
            return self._binary(type(op), *operands)
        if isinstance(op, arith.CmpiOp):
            lhs, rhs = (self.ssa(operand) for operand in operands)
            return self.emit(arith.CmpiOp(lhs, rhs, op.predicate.value.data)).results[0]
        if isinstance(op, INTEGER_CASTS):
            source = operands[0]
            if isinstance(source, int):
                return source
            return self.emit(type(op)(source, op.results[0].type)).results[0]
        if isinstance(op, affine.ApplyOp):
            affine_map = op.map.data
            return self.affine(affine_map.results[0], operands[:affine_map.num_dims],
                               operands[affine_map.num_dims:])
        if isinstance(op, LinearizeIndexOp):
            half = len(operands) // 2
            total: Index = 0
            for iv, stride in zip(operands[:half], operands[half:]):
                total = self.add(total, self.mul(iv, stride))
            return total
        assert isinstance(op, DeriveSizeOp)
        levels = (len(operands) - 1) // 2
        start: Index = 0
        for iv, size in zip(operands[:levels], operands[levels:2 * levels]):
            start = self.add(start, self.mul(iv, size))
        left = self.max(self.sub(operands[-1], start), 0)
        return self.min(operands[2 * levels - 1], left)
