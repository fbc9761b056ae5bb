"""The element positions a ``linalg.generic`` body computes on (``linalg.index``).

A body may read the position of its element along a loop (``linalg.index d``) and
compute on it with integer ``arith`` (with integer constants), compare the results
(``arith.cmpi``), select by such a compare or convert a result to a float
(``arith.sitofp`` / ``arith.uitofp``). That computation depends on the position alone:
over the generic's domain it is a table of integers, which the compute stage holds as
a constant vector (one lane per element, in the domain's row-major order). The
``ktir-legality-check`` accepts a body whose positions are used so
(``position_error``); ``convert-ktdf-to-dfir`` evaluates them (``position_values``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, Operation, SSAValue

from ktc.passes.utils.values import INTEGER_CASTS, INTEGER_OPS, evaluate

TO_FLOAT = (arith.SIToFPOp, arith.UIToFPOp)
"""Conversions of a position to a float: the boundary to the vector computation."""

_WIDTH = 1 << 64

_PREDICATES = (
    lambda a, b: a == b, lambda a, b: a != b,
    lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b,
    lambda a, b: a % _WIDTH < b % _WIDTH, lambda a, b: a % _WIDTH <= b % _WIDTH,
    lambda a, b: a % _WIDTH > b % _WIDTH, lambda a, b: a % _WIDTH >= b % _WIDTH,
)
"""``arith.cmpi`` predicates in their enum order (eq ne slt sle sgt sge ult ule ugt uge)."""


def _computes(op: Operation) -> bool:
    return type(op) in INTEGER_OPS or isinstance(op, (*INTEGER_CASTS, arith.CmpiOp, *TO_FLOAT))


def position_ops(block: Block) -> list[Operation]:
    """The ops of the body computing on positions, in order: ``linalg.index`` and the
    integer ops, compares and conversions whose operands are positions or constants
    (at least one a position)."""
    found: list[Operation] = []
    positions: set[SSAValue] = set()
    for op in block.ops:
        reads = any(operand in positions for operand in op.operands)
        if isinstance(op, IndexOp) or (reads and _computes(op) and all(
                operand in positions or evaluate(operand, ()) is not None
                for operand in op.operands)):
            found.append(op)
            positions.update(op.results)
    return found


def position_error(block: Block) -> tuple[Operation, str] | None:
    """The first op that uses a position otherwise than ``position_ops`` compute and
    a select by a compare of positions, with the reason; None when there is none."""
    ops = position_ops(block)
    positions = {result for op in ops for result in op.results if not isinstance(op, TO_FLOAT)}
    for op in block.ops:
        if op in ops or not any(operand in positions for operand in op.operands):
            continue
        if isinstance(op, arith.SelectOp) and op.cond in positions and not (
                {op.lhs, op.rhs} & positions):
            continue
        if _computes(op):
            return op, ("computes on the element's position (linalg.index) with a value from "
                        "outside the body that is not a constant; a position computation is a "
                        "constant table of the generic's domain, so only constants may join it")
        return op, ("takes the element's position (linalg.index) as a value; positions enter "
                    "the computation by an arith.cmpi read by arith.select, or by arith.sitofp "
                    "or arith.uitofp")
    return None


def position_values(block: Block, sizes: Sequence[int]) -> dict[SSAValue, np.ndarray]:
    """The value of every position result of the body at each element of a domain of
    ``sizes``, flattened in row-major order: Python integers (booleans for compares),
    floats for a conversion."""
    grid = [axis.reshape(-1).astype(object) for axis in np.indices(tuple(sizes))]
    values: dict[SSAValue, np.ndarray] = {}

    def operand(value: SSAValue) -> np.ndarray:
        if value in values:
            return values[value]
        return np.full(len(grid[0]) if grid else 1, evaluate(value, ()), dtype=object)

    for op in position_ops(block):
        values[op.results[0]] = _value(op, [operand(v) for v in op.operands], grid)
    return values


def _value(op: Operation, operands: list[np.ndarray], grid: list[np.ndarray]) -> np.ndarray:
    if isinstance(op, IndexOp):
        return grid[op.dim.value.data]
    if isinstance(op, arith.CmpiOp):
        test = _PREDICATES[op.predicate.value.data]
        return np.array([bool(test(a, b)) for a, b in zip(*operands)], dtype=object)
    if isinstance(op, TO_FLOAT):
        unsigned = isinstance(op, arith.UIToFPOp)
        return np.array([float(a % _WIDTH if unsigned else a) for a in operands[0]])
    if isinstance(op, INTEGER_CASTS):
        return operands[0]
    combine = INTEGER_OPS[type(op)]
    return np.array([combine(a, b) for a, b in zip(*operands)], dtype=object)
