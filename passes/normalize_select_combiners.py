"""``normalize-select-combiners``: a reduction that keeps the larger (or smaller) of
the accumulator and a term by ``arith.cmpf`` + ``arith.select`` combines with
``arith.maxnumf`` (``arith.minnumf``) instead; one that keeps, beside it, the index
of that value (an argmax or argmin) becomes a max (min) reduction and a min
reduction of the indices where the value equals it.

A body ``out' = select(cmpf(p, t, out), t, out)`` with ``p`` one of ``ogt oge ugt
uge`` keeps the larger value; with ``olt ole ult ule`` the smaller; the operands of
the compare swapped, or those of the select, turn one into the other. Without NaNs
the two spellings give the same value in any fold order (ties keep an equal value),
so the pipeline's one-op reductions (``passes/analysis/reductions.py``) compile it.
With a NaN term they differ: ``maxnumf`` skips it, the select keeps or drops it
depending on where the fold meets it (``docs/kernels.md``).

An argmax body (``arg_extremum_of``) over values ``V`` and f32 indices ``I`` into
``V0``, ``I0`` becomes ``M = max(V0, max V)`` and ``J = min(J0, min_k t_k)`` with
``t = i + F * mask(v)``, ``J0 = I0 + F * mask(V0)``: ``mask`` is 0 where the value,
widened to f32 and clamped to its finite range, equals ``M`` so (``M' - v' = 0``)
and 1 elsewhere (the difference scaled past 1 by two multiplications by 2^100, then
``min(., 1)``), ``F`` the largest finite f32. Every op is an add, multiply or
extremum, which every compute engine has. The result is the smallest index among
the positions holding the maximum, which the body gives with its tie break in any
fold order (a body without it, which keeps the first of equal values in its fold
order, is left alone). Values that clamp alike (``-inf`` and the lowest finite f32)
count as equal, and a NaN value is never the maximum (``maxnumf``) but takes part in
the mask as the lowest value. An ``inter_tile_reduce`` combiner of (value, index)
partials with the same body becomes ``M = max(l_v, r_v)`` and ``min(l_i + F *
mask(l_v), r_i + F * mask(r_v))`` on the partials' tensors.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    ModuleOp,
    TensorType,
    f32,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.ktdp import InterTileReduceOp
from ktc.dialects.upstream import ReduceOp
from ktc.passes.analysis.reductions import arg_combiner_of, arg_extremum_of, extremum_of
from ktc.passes.utils.fusion import reduce_generic

SCALE = 2.0**100
"""Twice applied, it takes the smallest positive difference of two f32 values past 1."""


@dataclass(frozen=True)
class NormalizeSelectCombiners(ModulePass):
    """Rewrites compare-and-select reduction bodies into one max or min, and argmax
    and argmin reductions into a max or min and a min of indices.

    Expects KTIR kernels (after ``ktir-legality-check``): ``linalg.reduce`` and
    reduction ``linalg.generic``s. Produces the same reductions, each one-output
    body that yields ``select(cmpf(p, a, b), a, b)`` over the accumulator and one
    other value (``a``, ``b`` in either order) yielding ``maxnumf`` or ``minnumf`` of
    them instead (the compare and select erased when nothing else reads them); each
    two-output argmax or argmin (``arg_extremum_of``, ties broken by the index)
    whose index is an f32 input replaced by three ``linalg.generic``s: the extremum reduction, the
    index init masked by it, and the min reduction of the masked indices (module
    docstring); each ``ktdp.inter_tile_reduce`` combiner of a (value, f32 index)
    pair of partials that keeps the extremum with the index tie break
    (``arg_combiner_of``) the max (min) of the two values and the min of the two
    indices masked by it, on tensors. Other bodies, and bodies already normalized,
    are left as they are (idempotent).
    """

    name = "normalize-select-combiners"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for reduce in [o for o in op.walk() if isinstance(o, InterTileReduceOp)]:
            if len(reduce.outputs) == 2:
                _split_arg_combiner(reduce)
        for reduction in [o for o in op.walk() if _reduces(o)]:
            if len(reduction.results) == 2:
                _split_arg_extremum(reduction)
                continue
            block = reduction.regions[0].block
            replacement = extremum_of(block)
            if replacement is None:
                continue
            select = block.last_op.operands[0].owner
            compare = select.operands[0].owner
            Rewriter.replace_op(select, replacement)
            if not compare.results[0].uses:
                Rewriter.erase_op(compare)


def _reduces(op: Operation) -> bool:
    if isinstance(op, ReduceOp):
        return True
    return isinstance(op, GenericOp) and any(
        t.data == IteratorType.REDUCTION for t in op.iterator_types.data
    )


def _split_arg_extremum(op: Operation) -> None:
    """``op`` as its extremum and the min of its masked indices, when it is an
    argmax or argmin with the index tie break whose index is an f32 input."""
    inputs = len(op.operands) - 2
    arg = arg_extremum_of(op.regions[0].block, inputs)
    if arg is None or not arg.tie_break or isinstance(arg.index, Operation) or arg.index.type != f32:
        return
    generic = op if isinstance(op, GenericOp) else reduce_generic(op)
    maps = list(generic.indexing_maps.data)
    values, indices = (generic.inputs[a.index] for a in (arg.value, arg.index))
    value_map, index_map = (maps[a.index] for a in (arg.value, arg.index))
    (value_init, index_init), out_map = generic.outputs, maps[inputs]
    iterators = generic.iterator_types.data
    combine = arith.MaxnumfOp if arg.greater else arith.MinnumfOp
    extremum = GenericOp([values], [value_init], Region(_fold_block(combine, _element(values))),
                         [value_map, out_map], iterators, [value_init.type])
    rank = len(index_init.type.get_shape())
    empty = tensor.EmptyOp([], index_init.type)
    init = GenericOp([value_init, index_init, extremum.res[0]], [empty.tensor],
                     Region(_masked_block(arg.greater, _element(value_init), fold=False)),
                     [AffineMapAttr(AffineMap.identity(rank))] * 4,
                     [IteratorTypeAttr(IteratorType.PARALLEL)] * rank, [index_init.type])
    position = GenericOp([values, indices, extremum.res[0]], [init.res[0]],
                         Region(_masked_block(arg.greater, _element(values), fold=True)),
                         [value_map, index_map, out_map, out_map], iterators, [index_init.type])
    Rewriter.insert_op([extremum, empty, init, position], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [extremum.res[0], position.res[0]])
    if generic is not op:
        generic.erase()


def _fold_block(combine: type[Operation], element: Attribute) -> Block:
    """``(t, acc) -> combine(t, acc)``."""
    block = Block(arg_types=[element, element])
    folded = combine(*block.args)
    block.add_ops([folded, YieldOp(folded)])
    return block


def _masked_block(greater: bool, element: Attribute, fold: bool) -> Block:
    """``(v, i, m, acc) -> i + F * mask(v, m)``, folded into ``acc`` by ``minnumf``
    when ``fold``."""
    block = Block(arg_types=[element, f32, element, f32])
    v, i, m, acc = block.args
    ops: list[Operation] = []
    term = _masked_index(_emitter(ops), greater, v, i, m)
    result = _emitter(ops)(arith.MinnumfOp(term, acc)) if fold else term
    block.add_ops([*ops, YieldOp(result)])
    return block


def _split_arg_combiner(reduce: InterTileReduceOp) -> None:
    """An argmax or argmin combiner of (value, f32 index) partials, ties broken by
    the index, as ``max(l_v, r_v)`` and the min of both indices masked by it."""
    block = reduce.combiner.block
    arg = arg_combiner_of(block)
    if arg is None or not arg.tie_break or _element(arg.index) != f32:
        return
    (lv, li, rv, ri), yielded = block.args, block.last_op
    ops: list[Operation] = []
    emit = _emitter(ops)
    extremum = emit((arith.MaxnumfOp if arg.greater else arith.MinnumfOp)(lv, rv))
    left, right = (_masked_index(emit, arg.greater, v, i, extremum) for v, i in ((lv, li), (rv, ri)))
    index = emit(arith.MinnumfOp(left, right))
    old = [op for op in block.ops if op is not yielded]
    Rewriter.insert_op(ops, InsertPoint.before(yielded))
    yielded.operands = [extremum, index]
    for op in reversed(old):
        Rewriter.erase_op(op)


def _emitter(ops: list[Operation]) -> Callable[[Operation], SSAValue]:
    """Appends an op to ``ops`` and gives its result."""

    def emit(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    return emit


def _masked_index(emit: Callable[[Operation], SSAValue], greater: bool, v: SSAValue,
                  i: SSAValue, m: SSAValue) -> SSAValue:
    """``i + F * mask(v, m)`` of f32 scalars or tensors like ``i``: ``mask`` 0 where
    ``v`` (widened, clamped to the finite f32) equals the extremum ``m`` so, else 1."""
    wide = i.type

    def constant(x: float) -> SSAValue:
        if isinstance(wide, TensorType):
            return emit(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(wide, [x])))
        return emit(arith.ConstantOp(FloatAttr(x, f32)))

    largest = float(np.finfo(np.float32).max)
    lowest, highest, scale = constant(-largest), constant(largest), constant(SCALE)

    def clamped(x: SSAValue) -> SSAValue:
        widened = x if x.type == wide else emit(arith.ExtFOp(x, wide))
        return emit(arith.MinnumfOp(emit(arith.MaxnumfOp(widened, lowest)), highest))

    value, extremum = clamped(v), clamped(m)
    apart = emit(arith.SubfOp(extremum, value) if greater else arith.SubfOp(value, extremum))
    spread = emit(arith.MulfOp(emit(arith.MulfOp(apart, scale)), scale))
    mask = emit(arith.MinnumfOp(spread, constant(1.0)))
    return emit(arith.AddfOp(i, emit(arith.MulfOp(mask, highest))))


def _element(value: SSAValue) -> Attribute:
    return value.type.get_element_type() if isinstance(value.type, TensorType) else value.type
