"""Instruction selection for ``convert-ktdf-to-dfir``: a ``linalg.generic`` of a
compute stage becomes ``dfir`` vector instructions.

The stage holds one row of vectors at a time, flattened: every operand of the
generic is either the whole iteration domain (a vector of N elements, as its FIFO
slot carries it) or one element, splat over the N lanes. A parallel generic is one
instruction per body op. A reduction generic whose body is ``acc' = comb(acc, e)``
computes ``e`` over the N lanes, folds them with a horizontal ``dfir.reduce`` and
combines the one-element result with the accumulator's initial value. Float
constants in the body become constant vectors. A spyreop intrinsic runs as the
instructions a pattern of the device's arch file mapped it onto
(``ktdf_arch.instruction``), a fused (mean, mean of squares) pair held in two
vectors. An ``arith.cmpf`` becomes the compare instructions of
``passes/utils/compares.py``, held as a ``Mask`` (1 where it holds, 0 elsewhere, or
the complement of that), which only an ``arith.select`` reads: one ``select``
instruction, its values swapped for a complement, the mask converted to their type;
on an engine without ``select`` the blend by min and max of ``passes/utils/compares.py``
(one min or max where a value is an infinite constant, as a mask's ``-inf`` is).
A body's position computation (``linalg.index`` and integer ops on it,
``passes/analysis/positions.py``) is evaluated over the domain: a conversion of it to
a float is a constant vector of the positions' values, a compare of positions a
``Position`` that a select reads as a constant 0/1 condition vector in its values'
type. A run-time position (a position joined with a scalar of the program,
``runtime_ops``) is an f32 vector: the position's constant vector combined with a
splat of the scalar converted to f32 (its bits added to those of 1.5 * 2^23, whose
ulp is 1, splat, less 1.5 * 2^23: exact for scalars below 2^22 in magnitude); a
compare of such integers is the mask of their clamped difference (``a < b`` is
``min(max(b - a, 0), 1)``, ``a == b`` the complement of ``min(|a - b|, 1)``, an
unsigned one on each value plus 2^24 where it is negative), so it needs no compare
instruction. An op with no instruction is an error at that op. On
the matrix unit, a contraction ``C[m, n] += A[m, k] * B[k, n]`` of two-dimensional
operands is one ``dfir.matmul`` (``lower_contraction``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    UnitAttr,
    VectorType,
    f32,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ktc.arch.model import MatrixUnit
from ktc.dialects.dfir import (
    ARITY,
    ComputeKind,
    ComputeKindAttr,
    ComputeOp,
    ConvertOp,
    MatmulOp,
    ReduceKind,
    ReduceKindAttr,
    ReduceOp,
    SplatOp,
)
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import Instruction, instruction_of
from ktc.dialects.spyreop import FusedType
from ktc.passes.analysis.contractions import contraction
from ktc.passes.analysis.positions import TO_FLOAT, position_values, runtime_ops, scalar_ops
from ktc.passes.convert_ktdf_to_dfir.values import Index
from ktc.passes.utils.compares import SELECT, test_of
from ktc.passes.utils.values import INTEGER_CASTS, evaluate, float_constant

INSTRUCTIONS: dict[str, ComputeKind] = {
    "arith.addf": ComputeKind.ADD,
    "arith.subf": ComputeKind.SUB,
    "arith.mulf": ComputeKind.MUL,
    "arith.divf": ComputeKind.DIV,
    "arith.maximumf": ComputeKind.MAX,
    "arith.maxnumf": ComputeKind.MAX,
    "arith.minimumf": ComputeKind.MIN,
    "arith.minnumf": ComputeKind.MIN,
    "arith.negf": ComputeKind.NEG,
    "math.absf": ComputeKind.ABS,
    "math.exp": ComputeKind.EXP,
    "math.sqrt": ComputeKind.SQRT,
    "math.rsqrt": ComputeKind.RSQRT,
    "math.tanh": ComputeKind.TANH,
    "math.fma": ComputeKind.FMA,
}
"""Upstream scalar ops of a generic body and the SIMD instruction each becomes (a
spyreop intrinsic runs as the instruction the device's patterns mapped it onto)."""

REDUCTIONS: dict[str, ReduceKind] = {
    "arith.addf": ReduceKind.ADD,
    "arith.mulf": ReduceKind.MUL,
    "arith.maximumf": ReduceKind.MAX,
    "arith.maxnumf": ReduceKind.MAX,
    "arith.minimumf": ReduceKind.MIN,
    "arith.minnumf": ReduceKind.MIN,
}
"""Combining ops of a reduction body and the horizontal reduction each becomes."""

_CONVERSIONS = ("arith.extf", "arith.truncf")

CAPTURE = "capture"
"""Key of the scalar-capturing function in the value table of a body."""

SCALAR = "scalar"
"""Key of the function giving an integer scalar's program value in the value table."""

RUNTIME = "runtime"
"""Key of the body's run-time position ops in the value table."""

AVAILABLE = "available"
"""Key of the compute engine's instructions in the value table."""

_MAGIC_BITS = 0x4B400000
"""The f32 bits of 1.5 * 2^23: adding an integer below 2^22 in magnitude to them adds
it to the float, whose ulp there is 1."""

_INF = float("inf")

_COMBINES = {arith.AddiOp: ComputeKind.ADD, arith.SubiOp: ComputeKind.SUB,
             arith.MuliOp: ComputeKind.MUL}

Emit = Callable[[Operation], Operation]

@dataclass(frozen=True)
class Mask:
    """What holds an ``arith.cmpf``'s ``i1``: a vector of 1 where it holds, 0 elsewhere,
    in the compared type, or its complement (``negated``); no vector: a mask that
    never holds (always, negated)."""

    vector: SSAValue | None
    negated: bool


@dataclass(frozen=True)
class Position:
    """What holds an integer or ``i1`` value computed from the element's position:
    its value at each lane."""

    values: tuple


@dataclass(frozen=True)
class Integers:
    """What holds an integer computed from positions and run-time scalars: its f32
    vector, exact integers."""

    vector: SSAValue


Held = SSAValue | tuple[SSAValue, ...] | Mask | Position | Integers
"""What holds a body value: its vector, one vector per component of a fused pair, the
mask of a compare, or the values of a position."""


def lower_generic(generic: GenericOp, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue | None],
                  emit: Emit, capture: Callable[[SSAValue], SSAValue | None],
                  scalar: Callable[[SSAValue], Index], available: Collection[str]) -> SSAValue:
    """The vector the generic's single result holds, given its operands' vectors
    (``outputs`` is None for an output whose initial value is never read);
    ``capture`` brings in a scalar defined outside the body, or returns None;
    ``scalar`` gives an integer scalar of the program (computed where it is used);
    ``available`` the instructions of the engine computing it."""
    if len(generic.outputs) != 1:
        raise KtcError("a compute stage's generic has one output", where(generic))
    lanes = prod(_domain(generic))
    reduction = IteratorType.REDUCTION in [it.data for it in generic.iterator_types]
    block = generic.body.block
    ins = block.args[:len(generic.inputs)]
    values: dict = {arg: _widen(vector, lanes, emit) for arg, vector in zip(ins, inputs)}
    values[CAPTURE] = capture
    values[SCALAR] = scalar
    values[RUNTIME] = set(runtime_ops(block))
    values[AVAILABLE] = frozenset(available)
    values.update(_positions(generic, lanes, emit))
    values.update({result: None for op in scalar_ops(block) for result in op.results})
    if not reduction:
        outs = block.args[len(generic.inputs):]
        values.update({arg: _widen(vector, lanes, emit)
                       for arg, vector in zip(outs, outputs) if vector is not None})
    if not reduction:
        return _lower_body(block, values, lanes, emit)
    return _lower_reduction(generic, values, lanes, outputs[0], emit)


def _positions(generic: GenericOp, lanes: int, emit: Emit) -> dict[SSAValue, Held]:
    """What holds each position result of the body: a conversion to a float a
    constant vector, an integer or compare its values (``Position``); an integer
    constant, which only positions compute with, is held as no values."""
    block = generic.body.block
    held: dict[SSAValue, Held] = {
        op.result: Position(()) for op in block.ops
        if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IntegerType | IndexType)
    }
    for value, lane_values in position_values(block, _domain(generic)).items():
        if isinstance(value.owner, TO_FLOAT):
            held[value] = _dense(value.type, list(lane_values), emit)
        else:
            held[value] = Position(tuple(lane_values))
    return held


def _dense(element: Attribute, lane_values: list, emit: Emit) -> SSAValue:
    """A constant vector of one value per lane."""
    vector = _vector(element, len(lane_values))
    return emit(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(vector, lane_values),
                                 vector)).results[0]


def _domain(generic: GenericOp) -> list[int]:
    """The size of every loop of the generic, from its operands' static shapes."""
    sizes = [1] * len(generic.iterator_types)
    operands = [*generic.inputs, *generic.outputs]
    for operand, affine_map in zip(operands, generic.indexing_maps):
        shape = operand.type.get_shape() if isinstance(operand.type, ShapedType) else ()
        for expr, size in zip(affine_map.data.results, shape):
            position = getattr(expr, "position", None)
            if position is not None and size > 0:
                sizes[position] = max(sizes[position], size)
    return sizes


def _widen(vector: SSAValue, lanes: int, emit: Emit) -> SSAValue:
    """A whole-domain operand as is; a one-element operand splat over the lanes."""
    length = vector.type.get_shape()[0]
    if length == lanes:
        return vector
    if length != 1:
        raise KtcError(
            f"an operand of {length} elements in a generic over {lanes}: only whole rows "
            "and single elements are supported", where(vector.owner) if isinstance(vector.owner, Operation) else ""
        )
    return emit(SplatOp.build(operands=[vector], result_types=[_vector(vector.type.element_type, lanes)])).results[0]


def _vector(element: Attribute, lanes: int) -> VectorType:
    return VectorType(element, [lanes])


def _lower_body(block: Block, values: dict, lanes: int, emit: Emit) -> SSAValue:
    """Emits the body's ops; returns the yielded vector."""
    for op in block.ops:
        if isinstance(op, YieldOp):
            yielded = _operand(op.operands[0], values, lanes, emit, op)
            if isinstance(yielded, tuple | Mask | Position | Integers):
                raise KtcError("a generic yields a fused pair, a mask or a position; a "
                               "compute stage hands over vectors of one element type", where(op))
            return yielded
        if op.results and op.results[0] in values:
            continue
        values.update(zip(op.results, _instruction(op, values, lanes, emit)))
    raise KtcError("a generic body without linalg.yield", where(block.parent_op()))


def _instruction(op: Operation, values: dict, lanes: int, emit: Emit) -> list[Held]:
    """What holds each result of a body op: the vectors its instructions compute."""
    if op in values[RUNTIME]:
        return [_runtime(op, values, lanes, emit)]
    if isinstance(op, arith.ConstantOp):
        return [_constant(op, lanes, emit)]
    if isinstance(op, arith.SelectOp):
        return [_select(op, lambda value: _operand(value, values, lanes, emit, op),
                        values[AVAILABLE], emit)]
    operands = [_operand(operand, values, lanes, emit, op) for operand in op.operands]
    mapped = instruction_of(op)
    if mapped is not None:
        return _mapped(op, mapped, operands, lanes, emit)
    if any(isinstance(operand, tuple | Mask | Position | Integers) for operand in operands):
        raise KtcError(f"'{op.name}' takes a fused pair, a mask or a position", where(op))
    if isinstance(op, arith.CmpfOp):
        return [_compare(op, operands, emit)]
    result = _vector(op.results[0].type, lanes)
    if op.name in _CONVERSIONS:
        return [emit(ConvertOp.build(operands=[operands[0]], result_types=[result])).results[0]]
    if op.name not in INSTRUCTIONS:
        reason = ("no pattern of the device mapped it onto an instruction"
                  if op.dialect_name() == "spyreop" else "no SIMD instruction")
        raise KtcError(f"'{op.name}' has {reason}", where(op))
    kind = ComputeKindAttr(INSTRUCTIONS[op.name])
    return [emit(ComputeOp.build(operands=[operands], properties={"kind": kind},
                                 result_types=[result])).results[0]]


def _runtime(op: Operation, values: dict, lanes: int, emit: Emit) -> Held:
    """A run-time position op: the f32 vector of its integers, a compare's mask, a
    conversion's vector in the float type."""
    if isinstance(op, TO_FLOAT):
        held = values.get(op.operands[0])
        if isinstance(held, Mask):
            vector = _held_mask(op, held, lanes, emit)
        else:
            vector = _integers(op, op.operands[0], values, lanes, emit)
        return _converted(vector, op.results[0].type, emit)
    sources = [_integers(op, value, values, lanes, emit) for value in op.operands]
    if isinstance(op, INTEGER_CASTS):
        return Integers(sources[0])
    if isinstance(op, arith.CmpiOp):
        return _integer_compare(op, sources, lanes, emit)
    return Integers(_compute(op, _COMBINES[type(op)], sources, sources[0].type, emit))


def _integers(op: Operation, value: SSAValue, values: dict, lanes: int, emit: Emit) -> SSAValue:
    """An integer operand of a run-time position op as an f32 vector: a run-time
    position's, a position's constant table, a constant, or a program scalar (taken
    before its casts, which keep its value) splat."""
    held = values.get(value)
    if isinstance(held, Integers):
        return held.vector
    if isinstance(held, Position) and held.values:
        return _dense(f32, [float(lane) for lane in held.values], emit)
    constant = evaluate(value, ())
    if constant is not None:
        return _splat_constant(FloatAttr(float(constant), f32), lanes, emit)
    source = value
    while isinstance(source.owner, INTEGER_CASTS):
        source = source.owner.operands[0]
    values[value] = Integers(_float_splat(op, values[SCALAR](source), lanes, emit))
    return values[value].vector


def _float_splat(op: Operation, scalar: Index, lanes: int, emit: Emit) -> SSAValue:
    """An integer scalar of the program converted to f32 in every lane: its bits added
    to 1.5 * 2^23's, splat, less 1.5 * 2^23."""
    if isinstance(scalar, int):
        return _splat_constant(FloatAttr(float(scalar), f32), lanes, emit)
    if not isinstance(scalar.type, IndexType):
        scalar = emit(arith.IndexCastOp(scalar, IndexType())).results[0]
    bias = emit(arith.ConstantOp(IntegerAttr(_MAGIC_BITS, IndexType()))).results[0]
    word = emit(arith.IndexCastOp(emit(arith.AddiOp(scalar, bias)).results[0], i32)).results[0]
    bits = emit(arith.BitcastOp(word, f32)).results[0]
    splat = emit(SplatOp.build(operands=[bits], result_types=[_vector(f32, lanes)])).results[0]
    magic = _splat_constant(FloatAttr(1.5 * 2 ** 23, f32), lanes, emit)
    return _compute(op, ComputeKind.SUB, [splat, magic], splat.type, emit)


def _integer_compare(op: arith.CmpiOp, sources: list[SSAValue], lanes: int, emit: Emit) -> Mask:
    """The mask of a compare of integers held as floats, from their difference clamped
    to [0, 1]: ``a < b`` is ``clamp(b - a)``, ``a <= b`` ``clamp(b - a + 1)``, ``a == b``
    the complement of ``clamp(|a - b|)``; an unsigned predicate compares each value
    plus 2^24 where it is negative (``2^24 * clamp(-a)``), which orders the negative
    values (below 2^23 in magnitude) after the others, as their 64-bit patterns are."""
    predicate = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")[
        op.predicate.value.data]

    def compute(kind: ComputeKind, *operands: SSAValue) -> SSAValue:
        return _compute(op, kind, list(operands), sources[0].type, emit)

    def constant(value: float) -> SSAValue:
        return _splat_constant(FloatAttr(value, f32), lanes, emit)

    def clamp(value: SSAValue) -> SSAValue:
        return compute(ComputeKind.MIN, compute(ComputeKind.MAX, value, constant(0.0)), constant(1.0))

    def unsigned(value: SSAValue) -> SSAValue:
        negative = clamp(compute(ComputeKind.SUB, constant(0.0), value))
        return compute(ComputeKind.ADD, value, compute(ComputeKind.MUL, negative, constant(2.0 ** 24)))

    lhs, rhs = sources
    if predicate in ("eq", "ne"):
        distance = compute(ComputeKind.ABS, compute(ComputeKind.SUB, lhs, rhs))
        return Mask(clamp(distance), negated=predicate == "eq")
    if predicate.startswith("u"):
        lhs, rhs = unsigned(lhs), unsigned(rhs)
    low, high = (lhs, rhs) if predicate[1:] in ("lt", "le") else (rhs, lhs)
    gap = compute(ComputeKind.SUB, high, low)
    if predicate.endswith("e"):
        gap = compute(ComputeKind.ADD, gap, constant(1.0))
    return Mask(clamp(gap), negated=False)


def _held_mask(op: Operation, mask: Mask, lanes: int, emit: Emit) -> SSAValue:
    """A mask as its vector of 1 where it holds and 0 elsewhere."""
    element = mask.vector.type.element_type
    if not mask.negated:
        return mask.vector
    one = _splat_constant(FloatAttr(1.0, element), lanes, emit)
    return _compute(op, ComputeKind.SUB, [one, mask.vector], mask.vector.type, emit)


def _compare(op: arith.CmpfOp, operands: list[SSAValue], emit: Emit) -> Mask:
    """The mask of a compare (``passes/utils/compares.py``): its terms' masks, joined."""
    test = test_of(op)
    masks = [_compute(op, ComputeKind(name), [operands[left], operands[right]],
                      operands[0].type, emit) for name, left, right in test.terms]
    joined = masks[0] if masks else None
    for mask in masks[1:]:
        joined = _compute(op, ComputeKind(test.join), [joined, mask], mask.type, emit)
    return Mask(joined, test.negated)


def _select(op: arith.SelectOp, operand: Callable[[SSAValue], Held], available: frozenset[str],
            emit: Emit) -> SSAValue:
    """A select by a compare's mask (its values swapped where the mask is the
    complement, the mask converted to their type, exactly: it holds 0 and 1) or by a
    position's constant 0/1 condition: the ``select`` instruction where the engine has
    it, else the blend of ``passes/utils/compares.py``, which brings in no vector for
    an infinite constant. ``operand`` gives what holds a body value."""
    mask = operand(op.cond)
    if not isinstance(mask, Mask | Position):
        raise _not_selectable(op)
    chosen = (op.rhs, op.lhs) if isinstance(mask, Mask) and mask.negated else (op.lhs, op.rhs)

    def vector(value: SSAValue, element: Attribute) -> SSAValue:
        held = operand(value)
        if not isinstance(held, SSAValue):
            raise _not_selectable(op)
        return _converted(held, element, emit)

    element = op.result.type
    if isinstance(mask, Mask) and mask.vector is None:
        return vector(chosen[1], element)
    if SELECT in available:
        on_true, on_false = (vector(value, element) for value in chosen)
        condition = (_dense(element, [float(bit) for bit in mask.values], emit)
                     if isinstance(mask, Position) else _converted(mask.vector, element, emit))
        return _compute(op, ComputeKind.SELECT, [condition, on_true, on_false], on_true.type, emit)
    return _blend(op, _signs(op, mask, element, emit), *chosen, lambda value: vector(value, element),
                  emit)


def _not_selectable(op: arith.SelectOp) -> KtcError:
    return KtcError("'arith.select' selects vectors by the mask of a compare of its "
                    "computation (an arith.cmpf, or an arith.cmpi of positions)", where(op))


def _signs(op: arith.SelectOp, mask: Mask | Position, element: Attribute,
           emit: Emit) -> Callable[[float], SSAValue]:
    """``M`` (``sign`` 1) or ``-M`` (``sign`` -1) of the blend in ``element``: ``sign *
    inf`` where the condition holds and ``-sign * inf`` elsewhere; a position's a
    constant vector, a mask's ``(m - 0.5) * (sign * inf)``."""
    if isinstance(mask, Position):
        return lambda sign: _dense(element, [sign * (1 if bit else -1) * _INF
                                             for bit in mask.values], emit)
    lanes = mask.vector.type.get_shape()[0]
    m = _converted(mask.vector, element, emit)
    half = _compute(op, ComputeKind.SUB, [m, _splat_constant(FloatAttr(0.5, element), lanes, emit)],
                    m.type, emit)
    return lambda sign: _compute(
        op, ComputeKind.MUL, [half, _splat_constant(FloatAttr(sign * _INF, element), lanes, emit)],
        m.type, emit)


def _blend(op: arith.SelectOp, signs: Callable[[float], SSAValue], on_true: SSAValue,
           on_false: SSAValue, vector: Callable[[SSAValue], SSAValue], emit: Emit) -> SSAValue:
    """``select(c, a, b)`` as ``max(min(a, M), min(b, -M))``, or one min or max where
    ``a`` or ``b`` is an infinite constant (``passes/utils/compares.py``); ``vector``
    gives the vector of a body value."""

    def compute(kind: ComputeKind, a: SSAValue, b: SSAValue) -> SSAValue:
        return _compute(op, kind, [a, b], a.type, emit)

    true_constant, false_constant = float_constant(on_true), float_constant(on_false)
    if false_constant in (_INF, -_INF):
        return (compute(ComputeKind.MIN, vector(on_true), signs(1)) if false_constant < 0
                else compute(ComputeKind.MAX, vector(on_true), signs(-1)))
    if true_constant in (_INF, -_INF):
        return (compute(ComputeKind.MIN, vector(on_false), signs(-1)) if true_constant < 0
                else compute(ComputeKind.MAX, vector(on_false), signs(1)))
    return compute(ComputeKind.MAX, compute(ComputeKind.MIN, vector(on_true), signs(1)),
                   compute(ComputeKind.MIN, vector(on_false), signs(-1)))


def _mapped(op: Operation, mapped: Instruction, operands: list[Held], lanes: int,
            emit: Emit) -> list[Held]:
    """An op a device pattern mapped onto its compute engine's instructions: one
    instruction per component of its results, each over every component of its
    operands; an instruction with parameters takes the operands converted to the
    parameters' type (f32, exact for the narrower float types) and the parameters after
    them, splat, and gives its result in the op's own type."""
    sources = [part for held in operands for part in (held if isinstance(held, tuple) else (held,))]
    if mapped.parameters:
        wide = mapped.parameters[0].type
        sources = [_converted(source, wide, emit) for source in sources]
        sources += [_splat_constant(parameter, lanes, emit) for parameter in mapped.parameters]
    parts = [element for result in op.results for element in _components(result.type)]
    if len(parts) != len(mapped.kinds):
        raise KtcError(f"'{op.name}' is mapped onto {len(mapped.kinds)} instructions, but its "
                       f"results have {len(parts)} components", where(op))
    computed = iter([_compute(op, kind, sources, _vector(element, lanes), emit)
                     for kind, element in zip(mapped.kinds, parts)])
    held: list[Held] = []
    for result in op.results:
        components = tuple(next(computed) for _ in _components(result.type))
        held.append(components if isinstance(result.type, FusedType) else components[0])
    return held


def _compute(op: Operation, kind: ComputeKind, sources: list[SSAValue], result: VectorType,
             emit: Emit) -> SSAValue:
    if len(sources) != ARITY[kind]:
        raise KtcError(f"'{op.name}' is mapped onto '{kind}', which takes {ARITY[kind]} "
                       f"operands, not {len(sources)}", where(op))
    return emit(ComputeOp.build(operands=[sources], properties={"kind": ComputeKindAttr(kind)},
                                result_types=[result])).results[0]


def _components(value_type: Attribute) -> tuple[Attribute, ...]:
    """The element types a value is held in: the two of a fused pair, else its own."""
    return (value_type.SCALAR,) * 2 if isinstance(value_type, FusedType) else (value_type,)


def _converted(vector: SSAValue, element: Attribute, emit: Emit) -> SSAValue:
    if vector.type.element_type == element:
        return vector
    wide = VectorType(element, vector.type.get_shape())
    return emit(ConvertOp.build(operands=[vector], result_types=[wide])).results[0]


def _splat_constant(value: FloatAttr, lanes: int, emit: Emit) -> SSAValue:
    """A float constant in every lane."""
    vector = _vector(value.type, lanes)
    return emit(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(vector, [value.value.data]),
                                 vector)).results[0]


def _operand(value: SSAValue, values: dict[SSAValue, SSAValue], lanes: int, emit: Emit,
             user: Operation) -> SSAValue:
    """A body value; a scalar from outside the body is a constant or a scalar the
    ``capture`` in ``values`` brings in (a kernel argument), splat over the lanes."""
    if value in values:
        return values[value]
    if not isinstance(value, BlockArgument) and isinstance(value.owner, arith.ConstantOp):
        values[value] = _constant(value.owner, lanes, emit)
        return values[value]
    scalar = values[CAPTURE](value) if CAPTURE in values else None
    if scalar is None:
        raise KtcError(f"'{user.name}' uses a value the lowering cannot bring into the generic",
                       where(user))
    values[value] = emit(SplatOp.build(operands=[scalar],
                                       result_types=[_vector(value.type, lanes)])).results[0]
    return values[value]


def _constant(op: arith.ConstantOp, lanes: int, emit: Emit) -> SSAValue:
    """A float constant of the body, the same in every lane."""
    attr = op.value
    if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
        attr = attr.get_attrs()[0]
    if not isinstance(attr, FloatAttr):
        raise KtcError("only float constants are supported in a generic body", where(op))
    return _splat_constant(attr, lanes, emit)


def _lower_reduction(generic: GenericOp, values: dict[SSAValue, SSAValue], lanes: int,
                     init: SSAValue | None, emit: Emit) -> SSAValue:
    """``acc' = comb(acc, e)``: e over the lanes, reduced, combined with the init."""
    block = generic.body.block
    acc = block.args[len(generic.inputs)]
    yielded = block.last_op.operands[0]
    combine = yielded.owner
    if (not isinstance(combine, Operation) or combine.name not in REDUCTIONS
            or acc not in combine.operands or len(list(acc.uses)) != 1):
        raise KtcError("a reduction body must end in acc' = add/mul/max/min(acc, value)",
                       where(generic))
    if init is None:
        raise KtcError("a reduction needs an initial accumulator value", where(generic))
    other = combine.operands[1] if combine.operands[0] == acc else combine.operands[0]
    values_before = _lower_until(block, values, lanes, emit, combine)
    element = _operand(other, values_before, lanes, emit, combine)
    one = _vector(element.type.element_type, 1)
    folded = emit(ReduceOp.build(operands=[element], result_types=[one],
                                 properties={"kind": ReduceKindAttr(REDUCTIONS[combine.name])}))
    kind = ComputeKindAttr(INSTRUCTIONS[combine.name])
    return emit(ComputeOp.build(operands=[[init, folded.results[0]]], properties={"kind": kind},
                                result_types=[one])).results[0]


def _lower_until(block: Block, values: dict, lanes: int, emit: Emit, stop: Operation) -> dict:
    for op in block.ops:
        if op is stop:
            break
        if op.results and op.results[0] in values:
            continue
        values.update(zip(op.results, _instruction(op, values, lanes, emit)))
    return values


def lower_fill(generic: GenericOp, emit: Emit) -> SSAValue | None:
    """A generic with no inputs that yields a constant: a constant vector; else None."""
    if generic.inputs or len(generic.outputs) != 1:
        return None
    yielded = generic.body.block.last_op.operands[0]
    if not isinstance(yielded.owner, arith.ConstantOp):
        return None
    return _constant(yielded.owner, prod(_domain(generic)), emit)


def lower_contraction(generic: GenericOp, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue | None],
                      emit: Emit, unit: MatrixUnit) -> SSAValue | None:
    """A contraction ``C[m, n] += A[m, k] * B[k, n]`` (two-dimensional operands, A
    row-major, B row-major or, on a unit with ``transposed_rhs``, stored n x k; the
    accumulator read) as one ``dfir.matmul``; None for any other generic."""
    found = contraction(generic)
    if found is None:
        return None
    transposed = found.transposed(1)
    if (not found.is_matrix_product or found.transposed(0) or outputs[0] is None
            or (transposed and not unit.transposed_rhs)):
        raise KtcError("the matrix unit multiplies C[m, n] += A[m, k] * B[k, n] with A "
                       "row-major and B row-major (or n x k, on a unit with transposed_rhs)",
                       where(generic))
    (m, k), rhs = (value.type.get_shape() for value in generic.inputs)
    n = rhs[0] if transposed else rhs[1]
    acc = outputs[0]
    properties = {"shape": DenseArrayBase.from_list(i64, [m, k, n])}
    if transposed:
        properties["transposed_rhs"] = UnitAttr()
    return emit(MatmulOp.build(operands=[inputs[0], inputs[1], acc], result_types=[acc.type],
                               properties=properties)).results[0]
