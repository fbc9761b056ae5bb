"""What a reduction ``linalg.generic`` is: whether it reduces its innermost
dimension, with which ``arith`` combiner, and that combiner's identity."""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Operation

IDENTITIES: dict[type[Operation], float] = {
    arith.AddfOp: 0.0,
    arith.MulfOp: 1.0,
    arith.MaxnumfOp: -math.inf,
    arith.MaximumfOp: -math.inf,
    arith.MinnumfOp: math.inf,
    arith.MinimumfOp: math.inf,
}
"""The combiners a reduction may use, with their neutral element."""


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
