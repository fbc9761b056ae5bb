"""The element positions a ``linalg.generic`` body computes on (``linalg.index``).

A body may read the position of its element along a loop (``linalg.index d``) and
compute on it with integer ``arith`` (with integer constants), compare the results
(``arith.cmpi``), select by such a compare or convert a result to a float
(``arith.sitofp`` / ``arith.uitofp``). That computation depends on the position alone:
over the generic's domain it is a table of integers, which the compute stage holds as
a constant vector (one lane per element, in the domain's row-major order). The
``ktir-legality-check`` accepts a body whose positions are used so
(``position_error``); ``convert-ktdf-to-dfir`` evaluates them (``position_values``).

A position may also be joined with a run-time scalar: an integer value from outside
the body that is not a constant (a launch argument, the tile id, a loop's induction
variable), or an integer op of the body on such values alone, which the program
computes as a scalar. ``arith.addi``, ``arith.subi`` and ``arith.muli`` of a position
(or such a joined value) with a scalar, or of joined values, and the integer casts of
them, are run-time positions (``runtime_ops``): the compute stage holds them as f32
vectors, the position's constant vector combined with a splat of the scalar converted
to f32, exact while every value stays below 2^24 in magnitude (the scalars below 2^22).
An ``arith.cmpi`` of a run-time position, or of a position with a scalar, is a vector
compare (read by ``arith.select`` or converted by ``arith.uitofp``); an unsigned
predicate orders negative values after the others, as their bit patterns are (exact
below 2^23 in magnitude). A conversion of a
run-time position (or of a scalar) to a float is its vector in the float type.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

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

RUNTIME_COMBINES = (arith.AddiOp, arith.SubiOp, arith.MuliOp)
"""The integer ops that join a position with a run-time scalar."""

_COMPARE_INSTRUCTIONS = (({"sub", "abs", "max", "min"},) * 2 + ({"sub", "add", "max", "min"},) * 4
                         + ({"sub", "add", "mul", "max", "min"},) * 4)
"""Per ``arith.cmpi`` predicate, the instructions of its vector compare of integers
held as floats: a clamped difference (``convert-ktdf-to-dfir``)."""


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


def _is_scalar(value: SSAValue, block: Block, scalars: set[SSAValue]) -> bool:
    """An integer value the program computes as a scalar: defined outside the body
    (not a constant), or by an integer op of the body on such values and constants."""
    if not isinstance(value.type, IntegerType | IndexType) or value in block.args:
        return False
    if isinstance(value, BlockArgument):
        return True
    return value in scalars or (value.owner.parent_block() is not block
                                and evaluate(value, ()) is None)


def scalar_ops(block: Block) -> list[Operation]:
    """The integer ops of the body on run-time scalars and constants alone (at least
    one a scalar): the program computes them, not the compute engine."""
    found: list[Operation] = []
    scalars: set[SSAValue] = set()
    for op in block.ops:
        if (type(op) in INTEGER_OPS or isinstance(op, INTEGER_CASTS)) and any(
                _is_scalar(v, block, scalars) for v in op.operands) and all(
                _is_scalar(v, block, scalars) or evaluate(v, ()) is not None for v in op.operands):
            found.append(op)
            scalars.update(op.results)
    return found


def runtime_ops(block: Block) -> list[Operation]:
    """The ops of the body on run-time positions, in order: ``arith.addi``,
    ``arith.subi``, ``arith.muli`` and integer casts of a run-time position or of a
    position with a scalar; ``arith.cmpi`` of those; ``arith.sitofp`` / ``arith.uitofp``
    of a run-time position or a scalar, and ``arith.uitofp`` of such a compare."""
    table = {result for op in position_ops(block) for result in op.results
             if not isinstance(op, TO_FLOAT)}
    scalars = {result for op in scalar_ops(block) for result in op.results}
    found: list[Operation] = []
    joined: set[SSAValue] = set()
    compares: set[SSAValue] = set()
    for op in block.ops:
        kinds = [_kind(v, block, table, scalars, joined) for v in op.operands]
        if isinstance(op, (*RUNTIME_COMBINES, arith.CmpiOp)) and None not in kinds and (
                "joined" in kinds or {"table", "scalar"} <= set(kinds)):
            found.append(op)
            (compares if isinstance(op, arith.CmpiOp) else joined).update(op.results)
        elif isinstance(op, INTEGER_CASTS) and kinds == ["joined"]:
            found.append(op)
            joined.update(op.results)
        elif isinstance(op, TO_FLOAT) and kinds in (["joined"], ["scalar"]):
            found.append(op)
        elif isinstance(op, arith.UIToFPOp) and op.operands[0] in compares:
            found.append(op)
    return found


def _kind(value: SSAValue, block: Block, table: set[SSAValue], scalars: set[SSAValue],
          joined: set[SSAValue]) -> str | None:
    if value in joined:
        return "joined"
    if value in table:
        return "table"
    if _is_scalar(value, block, scalars):
        return "scalar"
    return "constant" if evaluate(value, ()) is not None else None


def runtime_instructions(op: Operation) -> set[str]:
    """The compute instructions a run-time position op runs as."""
    if isinstance(op, arith.CmpiOp):
        return _COMPARE_INSTRUCTIONS[op.predicate.value.data]
    names = {arith.AddiOp: "add", arith.SubiOp: "sub", arith.MuliOp: "mul"}
    return {names[type(op)]} if type(op) in names else set()


def position_error(block: Block) -> tuple[Operation, str] | None:
    """The first op that uses a position otherwise than ``position_ops`` and
    ``runtime_ops`` compute and a select by a compare of them, with the reason; None
    when there is none."""
    ops = {*position_ops(block), *runtime_ops(block)}
    positions = {result for op in ops for result in op.results if not isinstance(op, TO_FLOAT)}
    for op in block.ops:
        if op in ops or not any(operand in positions for operand in op.operands):
            continue
        if isinstance(op, arith.SelectOp) and op.cond in positions and not (
                {op.lhs, op.rhs} & positions):
            continue
        if _computes(op):
            return op, (f"computes on the element's position (linalg.index) with "
                        f"'{op.name}', which no position computation takes; a position joins "
                        "constants by integer arith, and run-time scalars by arith.addi, "
                        "arith.subi, arith.muli and casts, compared by arith.cmpi (read by "
                        "arith.select or arith.uitofp) or converted by arith.sitofp or "
                        "arith.uitofp")
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
