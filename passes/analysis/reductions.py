"""What a reduction ``linalg.generic`` is: whether it reduces its innermost
dimension, with which ``arith`` combiner, and that combiner's identity; which
compare-and-select body keeps an extremum (``extremum_of``), and which two-output
body keeps an extremum and its index (``arg_extremum_of``: an argmax or argmin)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

IDENTITIES: dict[type[Operation], float] = {
    arith.AddfOp: 0.0,
    arith.MulfOp: 1.0,
    arith.MaxnumfOp: -math.inf,
    arith.MaximumfOp: -math.inf,
    arith.MinnumfOp: math.inf,
    arith.MinimumfOp: math.inf,
}
"""The combiners a reduction may use, with their neutral element."""

GREATER = frozenset({"ogt", "oge", "ugt", "uge"})
"""``arith.cmpf`` predicates that hold when the left operand is the larger."""
LESS = frozenset({"olt", "ole", "ult", "ule"})
"""``arith.cmpf`` predicates that hold when the left operand is the smaller."""


def reduces_innermost(op: Operation) -> bool:
    """Whether ``op`` is a tensor ``linalg.generic`` whose innermost loop is its only
    reduction."""
    if not isinstance(op, GenericOp) or op.outputs and not isinstance(op.outputs[0].type, TensorType):
        return False
    kinds = [attr.data for attr in op.iterator_types.data]
    return kinds[-1] == IteratorType.REDUCTION and kinds.count(IteratorType.REDUCTION) == 1


def combiner(generic: GenericOp) -> type[Operation] | None:
    """The ``arith`` op that folds a value into the output of a reduction generic."""
    block = generic.body.block
    out = block.args[-1]
    yielded = block.last_op
    if not isinstance(yielded, YieldOp) or len(yielded.operands) != 1:
        return None
    folding = yielded.operands[0].owner
    if type(folding) not in IDENTITIES or out not in folding.operands:
        return None
    return type(folding)


def extremum_of(block: Block) -> Operation | None:
    """The ``maxnumf``/``minnumf`` a reduction body's compare-and-select means, or None
    when its yield is not ``select(cmpf(p, a, b), a, b)`` over the accumulator (the
    block's last argument) and another value, ``p`` an ordering predicate."""
    yielded = block.last_op
    if not isinstance(yielded, YieldOp) or len(yielded.operands) != 1:
        return None
    select = yielded.operands[0].owner
    if not isinstance(select, arith.SelectOp):
        return None
    compare = select.cond.owner
    if not isinstance(compare, arith.CmpfOp):
        return None
    picked, other = select.lhs, select.rhs
    accumulator = block.args[-1]
    if accumulator not in (picked, other) or picked is other:
        return None
    predicate = arith.CMPF_COMPARISON_OPERATIONS[compare.predicate.value.data]
    if predicate not in GREATER | LESS:
        return None
    if (compare.lhs, compare.rhs) not in ((picked, other), (other, picked)):
        return None
    greater = (predicate in GREATER) == (compare.lhs is picked)
    return _extremum(greater, accumulator, other if picked is accumulator else picked)


def _extremum(greater: bool, accumulator: SSAValue, term: SSAValue) -> Operation:
    kind = arith.MaxnumfOp if greater else arith.MinnumfOp
    return kind(term, accumulator)


@dataclass(frozen=True)
class ArgExtremum:
    """A two-output reduction body that keeps the larger (``greater``) or smaller of
    its values and, beside it, that value's index: an argmax or argmin.

    The body yields ``select(c, v, acc_v), select(c, i, acc_i)`` (values first),
    ``c`` the strict comparison ``v > acc_v`` (``v < acc_v``), or that or ``v ==
    acc_v and i < acc_i`` (``tie_break``: equal values keep the smaller index in any
    fold order). ``value`` and ``index`` are the block arguments of ``v`` and ``i``,
    or ``index`` the ``linalg.index`` op ``i`` is cast from.
    """

    greater: bool
    value: BlockArgument
    index: BlockArgument | Operation
    tie_break: bool


def arg_extremum_of(block: Block, inputs: int) -> ArgExtremum | None:
    """The argmax or argmin a reduction body of ``inputs`` inputs and two outputs
    means (``ArgExtremum``), or None."""
    found = _selected(block)
    if found is None or len(block.args) != inputs + 2:
        return None
    cond, (v, i), kept = found
    if kept != tuple(block.args[inputs:]) or v not in block.args[:inputs]:
        return None
    index = i if i in block.args[:inputs] else _position(i)
    if index is None or index is v:
        return None
    return _arg_condition(cond, v, kept[0], i, kept[1], index)


def arg_combiner_of(block: Block) -> ArgExtremum | None:
    """The argmax or argmin a ``ktdp.inter_tile_reduce`` combiner of two partials
    means: its arguments ``(lhs_v, lhs_i, rhs_v, rhs_i)``, one pair replacing the
    other as ``arg_extremum_of`` reads it (the new pair's ``value`` and ``index``)."""
    found = _selected(block)
    if found is None or len(block.args) != 4:
        return None
    cond, taken, kept = found
    if {taken, kept} != {tuple(block.args[:2]), tuple(block.args[2:])}:
        return None
    return _arg_condition(cond, taken[0], kept[0], taken[1], kept[1], taken[1])


def _selected(block: Block) -> tuple[SSAValue, tuple[SSAValue, SSAValue], tuple[SSAValue, SSAValue]] | None:
    """A body yielding ``select(c, a_v, b_v), select(c, a_i, b_i)``: ``c``, the pair
    taken where ``c`` holds and the pair kept elsewhere."""
    yielded = block.last_op
    if yielded is None or len(yielded.operands) != 2:
        return None
    selects = [value.owner for value in yielded.operands]
    if not all(isinstance(s, arith.SelectOp) for s in selects) or selects[0].cond is not selects[1].cond:
        return None
    return selects[0].cond, (selects[0].lhs, selects[1].lhs), (selects[0].rhs, selects[1].rhs)


def _arg_condition(cond: SSAValue, v: SSAValue, acc_v: SSAValue, i: SSAValue, acc_i: SSAValue,
                   index: BlockArgument | Operation) -> ArgExtremum | None:
    """The argmax or argmin ``cond`` chooses the new pair by: ``v`` strictly beyond
    ``acc_v``, or that or equal with ``i`` the smaller index."""
    greater = _strict(cond, v, acc_v)
    if greater is not None:
        return ArgExtremum(greater, v, index, tie_break=False)
    either = cond.owner
    if not isinstance(either, arith.OrIOp):
        return None
    for strict, tie in ((either.lhs, either.rhs), (either.rhs, either.lhs)):
        greater = _strict(strict, v, acc_v)
        if greater is not None and _tie(tie, v, acc_v, i, acc_i):
            return ArgExtremum(greater, v, index, tie_break=True)
    return None


def _strict(cond: SSAValue, new: SSAValue, old: SSAValue) -> bool | None:
    """True when ``cond`` is ``new > old``, False when ``new < old``, else None."""
    return _ordering(cond, new, old, {"ogt": True, "olt": False})


def _ordering(cond: SSAValue, new: SSAValue, old: SSAValue, meanings: dict[str, bool]) -> bool | None:
    """``meanings[p]`` for ``cond = cmp(p, new, old)``, its negation for the operands
    swapped, None for anything else (``p`` an ``arith.cmpf`` or ``arith.cmpi``
    predicate)."""
    compare = cond.owner
    if isinstance(compare, arith.CmpfOp):
        predicate = arith.CMPF_COMPARISON_OPERATIONS[compare.predicate.value.data]
    elif isinstance(compare, arith.CmpiOp):
        predicate = arith.CMPI_COMPARISON_OPERATIONS[compare.predicate.value.data]
    else:
        return None
    if predicate not in meanings:
        return None
    if (compare.lhs, compare.rhs) == (new, old):
        return meanings[predicate]
    if (compare.lhs, compare.rhs) == (old, new):
        return not meanings[predicate]
    return None


def _tie(cond: SSAValue, v: SSAValue, acc_v: SSAValue, i: SSAValue, acc_i: SSAValue) -> bool:
    """Whether ``cond`` is ``v == acc_v and i < acc_i`` (either operand order)."""
    both = cond.owner
    if not isinstance(both, arith.AndIOp):
        return False
    smaller = {"olt": True, "ogt": False, "slt": True, "sgt": False, "ult": True, "ugt": False}
    for equal, lower in ((both.lhs, both.rhs), (both.rhs, both.lhs)):
        same = equal.owner
        if (isinstance(same, arith.CmpfOp)
                and arith.CMPF_COMPARISON_OPERATIONS[same.predicate.value.data] == "oeq"
                and {same.lhs, same.rhs} == {v, acc_v} and _ordering(lower, i, acc_i, smaller)):
            return True
    return False


def _position(value: SSAValue) -> Operation | None:
    """The ``linalg.index`` ``value`` is, or is cast from (index and integer casts,
    integer to float)."""
    op = value.owner
    while isinstance(op, arith.IndexCastOp | arith.SIToFPOp | arith.UIToFPOp):
        op = op.input.owner
    return op if isinstance(op, IndexOp) else None
