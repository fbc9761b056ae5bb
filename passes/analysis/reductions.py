"""What a reduction ``linalg.generic`` is: whether it reduces its innermost
dimension, with which ``arith`` combiner, and that combiner's identity; and which
compare-and-select body keeps an extremum (``extremum_of``)."""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, SSAValue

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
