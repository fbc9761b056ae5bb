"""``normalize-contractions``: every contraction of a program one canonical
``linalg.generic`` that accumulates where the kernel accumulates.

``linalg.matmul``, ``linalg.batch_matmul`` and a ``linalg.generic`` whose body is a
multiply-accumulate all become the generic ``canonical`` builds
(``passes/analysis/contractions.py``): loops (batch..., m, n, k), the inputs' maps
as the kernel reads them. A ``linalg.transpose`` feeding an input is folded into that
input's map, and an ``arith.extf`` of a whole tensor into the body's widening of the
input's elements (in either order: a cast of a transpose or a transpose of a cast); a sum ``acc + C`` of a contraction ``C`` into a zero (or empty) tensor,
``C`` used nowhere else, becomes the contraction accumulating into ``acc``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, ModuleOp
from xdsl.dialects.linalg.ops import FillOp, TransposeOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.passes.analysis.contractions import Contraction, canonical, contraction, is_zero
from ktc.passes.utils.ir import erase_unused
from ktc.passes.utils.phases import programs


@dataclass(frozen=True)
class NormalizeContractions(ModulePass):
    """Write every contraction as the canonical generic, folding transposes and sums.

    Expects programs from ``compute-group-extraction`` (tensors in straight-line code
    and loops). Produces, per contraction (a ``linalg.matmul``, ``linalg.batch_matmul``
    or multiply-accumulate ``linalg.generic``), a canonical ``linalg.generic``: its loops
    ordered batch, m, n, k; an input produced by a ``linalg.transpose`` read through the
    transpose's input with the permuted map; an input made by an ``arith.extf`` to the
    output's element type read through the cast's input, the body widening each element
    (exact, as the cast is; a transpose and a cast, in either order, both folded); when its accumulator is a zero, a fill of
    zero or an empty tensor and its one user is an ``arith.addf``/``arith.addi`` with
    another tensor made before the contraction, the contraction accumulates into that
    tensor instead and replaces the sum; an empty accumulator left is filled with
    zeros (``linalg.fill``), as the reference reads it, and a fill other ops use too is
    copied for the contraction. Transposes and tensors left unused are erased. A canonical generic is left
    as it is, so running the pass again changes nothing.
    """

    name = "normalize-contractions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for program in programs(op):
            for inner in list(program.walk()):
                if inner.parent is None:
                    continue
                found = contraction(inner)
                if found is not None:
                    _normalize(found)


def _normalize(c: Contraction) -> None:
    element = c.init.type.get_element_type()
    lhs, lhs_map, lhs_made = _read_through(c.lhs, c.maps[0], element)
    rhs, rhs_map, rhs_made = _read_through(c.rhs, c.maps[1], element)
    order = [*c.batch, *c.m, *c.n, *c.k]
    permutation = {old: new for new, old in enumerate(order)}
    maps = [_renumbered(amap, permutation) for amap in (lhs_map, rhs_map, c.maps[2])]
    init, replaced = _accumulated(c)
    init = _zeroed(init, c.op)
    reduced = tuple(permutation[d] for d in c.k)
    generic = canonical(lhs, rhs, init, maps, len(order), reduced)
    generic.location = c.op.location
    if _same(c, generic, lhs, rhs, init):
        generic.erase()
        return
    Rewriter.insert_op(generic, InsertPoint.before(c.op))
    replaced.replace_all_uses_with(generic.results[0])
    if replaced.owner is not c.op:
        Rewriter.erase_op(replaced.owner)
    Rewriter.erase_op(c.op)
    erase_unused([*lhs_made, *rhs_made, c.init.owner])


def _zeroed(init: SSAValue, at: Operation) -> SSAValue:
    """``init``, or a fill of zeros before ``at`` where it is an empty tensor (the
    reference reads an empty tensor as zeros; the schedules start a reduction from the
    value its output holds), or a copy of its fill before ``at`` where others use that
    fill too (the schedules accumulate in the buffer of the output's initial value, so
    two products from one fill would add into one buffer)."""
    owner = init.owner
    if isinstance(owner, FillOp) and len(list(init.uses)) > 1:
        copy = owner.clone()
        copy.location = at.location
        Rewriter.insert_op(copy, InsertPoint.before(at))
        return copy.results[0]
    if not isinstance(owner, tensor.EmptyOp):
        return init
    element = init.type.get_element_type()
    zero = arith.ConstantOp(IntegerAttr(0, element) if isinstance(element, IntegerType)
                            else FloatAttr(0.0, element))
    fill = FillOp([zero.result], [init], [init.type])
    for op in (zero, fill):
        op.location = at.location
    Rewriter.insert_op([zero, fill], InsertPoint.before(at))
    return fill.results[0]


def _read_through(value: SSAValue, amap: AffineMap, element: Attribute
                  ) -> tuple[SSAValue, AffineMap, list[Operation]]:
    """The value an input is made from by transposes and widenings to ``element`` (the
    output's element type, to which ``canonical`` widens the elements it reads), the
    map reading it, and the ops read through, the input's maker first."""
    owner = value.owner
    if isinstance(owner, arith.ExtFOp) and owner.result.type.get_element_type() == element:
        source, source_map, made = _read_through(owner.input, amap, element)
    elif isinstance(owner, TransposeOp):
        source, source_map, made = _read_through(*_untransposed(owner, amap), element)
    else:
        return value, amap, [owner]
    return source, source_map, [owner, *made]


def _untransposed(owner: TransposeOp, amap: AffineMap) -> tuple[SSAValue, AffineMap]:
    """The transpose's input and the map reading it through the transpose."""
    permutation = list(owner.permutation.get_values())
    results = [None] * len(permutation)
    for position, source in enumerate(permutation):
        results[source] = amap.results[position]
    return owner.inputs[0], AffineMap(amap.num_dims, 0, tuple(results))


def _renumbered(amap: AffineMap, permutation: dict[int, int]) -> AffineMap:
    """``amap`` over the loops renumbered by ``permutation`` (old position -> new)."""
    dims = [AffineExpr.dimension(permutation[d]) for d in range(len(permutation))]
    return AffineMap(len(permutation), 0,
                     tuple(expr.replace_dims_and_symbols(dims, []) for expr in amap.results))


def _accumulated(c: Contraction) -> tuple[SSAValue, SSAValue]:
    """The accumulator to use, and the value the new contraction replaces: the sum
    ``acc + C`` when the contraction starts from zero and is only added to ``acc``."""
    uses = list(c.result.uses)
    if is_zero(c.init) and len(uses) == 1:
        user = uses[0].operation
        if isinstance(user, arith.AddfOp | arith.AddiOp) and user.parent_block() is c.op.parent_block():
            other = user.operands[1 - uses[0].index]
            if other.type == c.result.type and _before(other, c.op):
                return other, user.results[0]
    return c.init, c.result


def _before(value: SSAValue, op: Operation) -> bool:
    """Whether ``value`` is made before ``op``: an argument of an enclosing block, or
    the result of an op earlier in ``op``'s block or in an enclosing one."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return owner.parent_op() is not None and owner.parent_op().is_ancestor(op)
    for ancestor in _ancestors(op):
        if ancestor.parent_block() is owner.parent_block():
            block_ops = list(ancestor.parent_block().ops)
            return block_ops.index(owner) < block_ops.index(ancestor)
    return False


def _ancestors(op: Operation):
    while op is not None:
        yield op
        op = op.parent_op()


def _same(c: Contraction, generic, lhs: SSAValue, rhs: SSAValue, init: SSAValue) -> bool:
    """Whether ``c`` already is the canonical generic ``generic`` would replace it by."""
    return (c.op.name == "linalg.generic" and (lhs, rhs, init) == (c.lhs, c.rhs, c.init)
            and c.op.indexing_maps == generic.indexing_maps
            and c.op.iterator_types == generic.iterator_types
            and c.op.body.block.is_structurally_equivalent(generic.body.block))
