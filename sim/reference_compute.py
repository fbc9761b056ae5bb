"""Element computation of the KTIR reference interpreter: arith, math and spyreop ops on
scalars and whole tensors, and the tensor-shaped parts of linalg and tensor ops.

**Values.** An ``index`` scalar is a Python ``int``; any other scalar a numpy scalar of
its type's value dtype (``ktc.sim.numerics``: ``f16`` as ``float16``, ``df16`` as
``float32`` holding df16 values, ``i1`` as ``bool``); a tensor is a numpy array of that
dtype; a fused spyreop pair is a tuple. Every op below takes and returns such values and
works alike on scalars and arrays, so a ``linalg.generic`` body runs on whole arrays.

**Rounding.** ``f16``, ``f32`` and ``f64`` arithmetic is numpy's, which rounds every
result of ``+ - * /`` to nearest even in the operands' type, as MLIR's ops are defined
(arith and math take no df16; spyreop's df16 results are rounded by numerics). ``math`` functions
are evaluated in float64 and rounded once to the result type (numpy's own float32 and
float16 transcendentals are not correctly rounded and vary between CPUs). Contractions
(``linalg.matmul``, ``linalg.batch_matmul``) form products and sums in float64 (int64
for integers) and round once, as a wide accumulator does; the IR's body reads as a
rounding after every multiply-add, which only a tolerance separates from this.
Integers wrap at their width; integer division by zero is an error.

The spyreop intrinsics are ``ktc.sim.numerics``'s, the one definition the simulator
shares (``slice_reduction``, which reduces one SIMD vector of the device at a time, is
executed in ``reference_ops``). The older one-operand form of ``layernormscale`` has no
defined formula and is refused.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
)
from xdsl.ir import Attribute, Operation

from ktc.dialects.spyreop import DF16Type
from ktc.sim import numerics


class ExecutionError(Exception):
    """A failure the kernel caused (division by zero, an undefined value, ...); the
    interpreter reports it at the op being executed."""


# ---------------------------------------------------------------------------------------
# Types


def type_name(attr: Attribute) -> str:
    """The numerics name of a scalar type (or of a shaped type's element type)."""
    if isinstance(attr, ShapedType):
        attr = attr.get_element_type()
    return "df16" if isinstance(attr, DF16Type) else str(attr)


def as_value(name: str, x):
    """``x`` (scalar or array) as a value of type ``name``: 0-d arrays become scalars,
    ``index`` scalars Python ints, everything is rounded (or wrapped) to the type."""
    if name == "index":
        if isinstance(x, np.ndarray) and x.ndim:
            return x.astype(np.int64, copy=False)
        return int(x)
    rounded = as_array(name, x)
    return rounded[()] if rounded.ndim == 0 else rounded


def as_array(name: str, x) -> np.ndarray:
    """``x`` as an array (of any rank, 0 included) of values of type ``name``."""
    if name == "df16":
        return np.asarray(numerics.round_to(name, x))
    return np.asarray(x).astype(numerics.value_dtype(name), copy=False)


def constant(attr: Attribute, result_type: Attribute):
    """The value of an ``arith.constant``'s attribute."""
    name = type_name(result_type)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = tuple(result_type.get_shape())
        values = np.asarray(attr.get_values())
        if name == "i1":
            values = values.astype(np.int64) & 1
        if values.size == 1:
            return np.full(shape, as_array(name, values.reshape(())))
        return as_array(name, values).reshape(shape).copy()
    if isinstance(attr, FloatAttr):
        return as_value(name, np.float64(attr.value.data))
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if name == "i1":
            return np.bool_(value & 1)
        return value if name == "index" else wrap_integer(name, value)
    raise ExecutionError(f"constants of attribute {attr} are not executed")


def wrap_integer(name: str, value: int):
    """A Python int wrapped to the two's-complement integer type ``name``."""
    bits = np.dtype(numerics.value_dtype(name)).itemsize * 8
    value &= (1 << bits) - 1
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return numerics.value_dtype(name).type(value)


# ---------------------------------------------------------------------------------------
# Integer helpers


def _unsigned(x, name: str):
    """``x`` read as an unsigned integer of type ``name``'s width."""
    if name == "index":
        return x % (1 << 64) if not isinstance(x, np.ndarray) else x.astype(np.uint64)
    width = np.dtype(numerics.value_dtype(name)).itemsize
    return (
        np.asarray(x).astype(f"u{width}")[()]
        if not isinstance(x, np.ndarray)
        else x.astype(f"u{width}")
    )


def _no_zero(b) -> None:
    if np.any(np.asarray(b) == 0):
        raise ExecutionError("integer division by zero")


def _trunc_div(a, b):
    _no_zero(b)
    q = abs(a) // abs(b)
    return (
        np.where((a < 0) != (b < 0), -q, q)
        if isinstance(q, np.ndarray)
        else (-q if (a < 0) != (b < 0) else q)
    )


def _floor_div(a, b):
    _no_zero(b)
    return a // b


def _ceil_div(a, b):
    _no_zero(b)
    return -((-a) // b)


def _unsigned_ceil_div(a, b):
    _no_zero(b)
    return (a + b - 1) // b


def _unsigned_rem(a, b):
    _no_zero(b)
    return a % b


def _signed_rem(a, b):
    return a - b * _trunc_div(a, b)


_CMPI = {
    0: lambda a, b: a == b,
    1: lambda a, b: a != b,
    2: lambda a, b: a < b,
    3: lambda a, b: a <= b,
    4: lambda a, b: a > b,
    5: lambda a, b: a >= b,
}
"""``arith.cmpi`` predicates eq..sge; 6..9 (ult..uge) compare unsigned."""

_ORDERED = {
    1: np.equal,
    2: np.greater,
    3: np.greater_equal,
    4: np.less,
    5: np.less_equal,
    6: np.not_equal,
}
"""``arith.cmpf`` predicates oeq..one; ueq..une (8..13) are the same tests or unordered."""


def _unordered(a, b):
    return np.isnan(a) | np.isnan(b)


def _cmpf(predicate: int) -> Callable:
    """0 false, 1..6 ordered tests, 7 ord, 8..13 unordered tests, 14 uno, 15 true."""
    if predicate in (0, 15):
        return lambda a, b: np.full_like(_unordered(a, b), predicate == 15)
    if predicate == 7:
        return lambda a, b: ~_unordered(a, b)
    if predicate == 14:
        return _unordered
    if predicate < 7:
        test = _ORDERED[predicate]
        return lambda a, b: test(a, b) & ~_unordered(a, b)
    test = _ORDERED[predicate - 7]
    return lambda a, b: test(a, b) | _unordered(a, b)


# ---------------------------------------------------------------------------------------
# Element ops: name -> factory(op) -> function of the operand values

ElementFn = Callable[..., object]


def _result(op: Operation) -> str:
    return type_name(op.results[0].type)


def _binary(fn: Callable) -> Callable[[Operation], ElementFn]:
    """A float op numpy rounds in the operands' type (arith takes no df16)."""
    return lambda op: fn


def _integer(fn: Callable) -> Callable[[Operation], ElementFn]:
    """An integer op: index stays a Python int, fixed widths wrap in numpy."""

    def make(op: Operation) -> ElementFn:
        name = _result(op)
        if name == "index":
            return lambda a, b: (
                as_value(name, fn(a, b))
                if isinstance(a, np.ndarray) or isinstance(b, np.ndarray)
                else int(fn(a, b))
            )
        return lambda a, b: as_value(name, fn(a, b))

    return make


def _unsigned_integer(fn: Callable) -> Callable[[Operation], ElementFn]:
    def make(op: Operation) -> ElementFn:
        name = type_name(op.operands[0].type)
        return lambda a, b: _back(name, fn(_unsigned(a, name), _unsigned(b, name)))

    return make


def _back(name: str, x):
    """An unsigned result read back as the signed type ``name``."""
    if name == "index":
        if isinstance(x, np.ndarray):
            return x.astype(np.int64)
        x = int(x)
        return x - (1 << 64) if x >= 1 << 63 else x
    return as_value(name, np.asarray(x).astype(numerics.value_dtype(name)))


def _math(fn: Callable) -> Callable[[Operation], ElementFn]:
    """A float function evaluated in float64 and rounded once to the result type."""

    def make(op: Operation) -> ElementFn:
        name = _result(op)
        return lambda *xs: as_value(name, fn(*(np.asarray(x, np.float64) for x in xs)))

    return make


def _cast(op: Operation) -> ElementFn:
    source, target = type_name(op.operands[0].type), _result(op)
    unsigned = op.name in ("arith.extui", "arith.uitofp", "arith.index_castui")
    truncating = op.name in ("arith.fptosi", "arith.fptoui")

    def cast(x):
        if unsigned:
            x = _unsigned(x, source)
        if truncating:
            x = np.trunc(np.asarray(x, np.float64))
        if source in numerics.FLOAT_TYPES or target in numerics.FLOAT_TYPES:
            return as_value(target, x)
        return _wrapped(target, x)

    return cast


def _wrapped(name: str, x):
    """An integer ``x`` wrapped to the integer type ``name``."""
    if name == "index":
        return as_value(name, np.asarray(x).astype(np.int64))
    if name == "i1":
        return as_value(name, np.asarray(x).astype(np.int64) & 1)
    return as_value(name, np.asarray(x).astype(np.int64).astype(numerics.value_dtype(name)))


def _bitcast(op: Operation) -> ElementFn:
    source, target = type_name(op.operands[0].type), _result(op)

    def cast(x):
        raw = np.asarray(numerics.to_storage(source, np.asarray(x)))
        return as_value(
            target, numerics.from_storage(target, raw.view(numerics.storage_dtype(target)))
        )

    return cast


def _select(op: Operation) -> ElementFn:
    name = _result(op)

    def select(condition, a, b):
        if isinstance(condition, np.ndarray) and condition.ndim:
            return as_value(name, np.where(condition, a, b))
        return a if condition else b

    return select


def _cmpi(op: Operation) -> ElementFn:
    predicate = op.predicate.value.data
    if predicate < 6:
        return _CMPI[predicate]
    name = type_name(op.operands[0].type)
    test = _CMPI[predicate - 4]
    return lambda a, b: test(_unsigned(a, name), _unsigned(b, name))


def _round_half_away(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


_erf = np.vectorize(pymath.erf, otypes=[np.float64])

ELEMENT_OPS: dict[str, Callable[[Operation], ElementFn]] = {
    "arith.addf": _binary(lambda a, b: a + b),
    "arith.subf": _binary(lambda a, b: a - b),
    "arith.mulf": _binary(lambda a, b: a * b),
    "arith.divf": _binary(lambda a, b: a / b),
    "arith.maximumf": _binary(np.maximum),
    "arith.minimumf": _binary(np.minimum),
    "arith.maxnumf": _binary(np.fmax),
    "arith.minnumf": _binary(np.fmin),
    "arith.negf": lambda op: lambda a: -a,
    "arith.addi": _integer(lambda a, b: a + b),
    "arith.subi": _integer(lambda a, b: a - b),
    "arith.muli": _integer(lambda a, b: a * b),
    "arith.andi": _integer(lambda a, b: a & b),
    "arith.ori": _integer(lambda a, b: a | b),
    "arith.xori": _integer(lambda a, b: a ^ b),
    "arith.shli": _integer(lambda a, b: a << b),
    "arith.shrsi": _integer(lambda a, b: a >> b),
    "arith.shrui": _unsigned_integer(lambda a, b: a >> b),
    "arith.maxsi": _integer(np.maximum),
    "arith.minsi": _integer(np.minimum),
    "arith.maxui": _unsigned_integer(np.maximum),
    "arith.minui": _unsigned_integer(np.minimum),
    "arith.divsi": _integer(_trunc_div),
    "arith.remsi": _integer(_signed_rem),
    "arith.floordivsi": _integer(_floor_div),
    "arith.ceildivsi": _integer(_ceil_div),
    "arith.divui": _unsigned_integer(_floor_div),
    "arith.remui": _unsigned_integer(_unsigned_rem),
    "arith.ceildivui": _unsigned_integer(_unsigned_ceil_div),
    "arith.cmpi": _cmpi,
    "arith.cmpf": lambda op: _cmpf(op.predicate.value.data),
    "arith.select": _select,
    "arith.bitcast": _bitcast,
    **{
        name: _cast
        for name in (
            "arith.extf",
            "arith.truncf",
            "arith.sitofp",
            "arith.uitofp",
            "arith.fptosi",
            "arith.fptoui",
            "arith.index_cast",
            "arith.index_castui",
            "arith.extsi",
            "arith.extui",
            "arith.trunci",
        )
    },
    "math.exp": _math(np.exp),
    "math.exp2": _math(np.exp2),
    "math.expm1": _math(np.expm1),
    "math.log": _math(np.log),
    "math.log2": _math(np.log2),
    "math.log10": _math(np.log10),
    "math.log1p": _math(np.log1p),
    "math.sqrt": _math(np.sqrt),
    "math.rsqrt": _math(lambda x: 1 / np.sqrt(x)),
    "math.cbrt": _math(np.cbrt),
    "math.tanh": _math(np.tanh),
    "math.sin": _math(np.sin),
    "math.cos": _math(np.cos),
    "math.tan": _math(np.tan),
    "math.sinh": _math(np.sinh),
    "math.cosh": _math(np.cosh),
    "math.asin": _math(np.arcsin),
    "math.acos": _math(np.arccos),
    "math.atan": _math(np.arctan),
    "math.asinh": _math(np.arcsinh),
    "math.acosh": _math(np.arccosh),
    "math.atanh": _math(np.arctanh),
    "math.erf": _math(_erf),
    "math.absf": _math(np.abs),
    "math.ceil": _math(np.ceil),
    "math.floor": _math(np.floor),
    "math.trunc": _math(np.trunc),
    "math.round": _math(_round_half_away),
    "math.roundeven": _math(np.rint),
    "math.powf": _math(np.power),
    "math.atan2": _math(np.arctan2),
    "math.copysign": _math(np.copysign),
    "math.fma": _math(lambda a, b, c: a * b + c),
    "math.fpowi": lambda op: (
        lambda x, n: as_value(_result(op), np.power(np.asarray(x, np.float64), n))
    ),
    "math.absi": lambda op: lambda a: abs(a),
}
"""Ops whose result is a function of their operands alone, elementwise."""


# ---------------------------------------------------------------------------------------
# spyreop


def _intrinsic(fn: Callable) -> Callable[[Operation], ElementFn]:
    def make(op: Operation) -> ElementFn:
        name = _result(op)
        return lambda *xs: as_value(name, fn(name, *xs))

    return make


def _softplus(op: Operation) -> ElementFn:
    name, beta, threshold = _result(op), op.beta.value.data, op.threshold.value.data
    return lambda x: as_value(name, numerics.softplus(name, x, beta, threshold))


def _compare(op: Operation) -> ElementFn:
    name, predicate = _result(op), op.predicate.data.value
    return lambda a, b: as_value(name, numerics.compare(name, predicate, a, b))


def _idx32toaddr(op: Operation) -> ElementFn:
    if op.base_address is None:
        return lambda i, base, stride: as_value("i32", numerics.idx32toaddr(i, base, stride))
    base, stride = op.base_address.value.data, op.stride_value.value.data
    return lambda i: as_value("i32", numerics.idx32toaddr(i, base, stride))


def _layernormscale(op: Operation) -> ElementFn:
    if op.squares is None:
        raise ExecutionError(
            "the older one-operand spyreop.layernormscale has no defined formula; "
            "write it as `%mean squares %squares`"
        )
    return _intrinsic(numerics.layernormscale)(op)


def _exx2_fused(op: Operation) -> ElementFn:
    name = type_name(op.operands[0].type)
    return lambda x: tuple(as_value(name, part) for part in numerics.exx2(name, x))


def _layernormscale_fused(op: Operation) -> ElementFn:
    name = _result(op)
    return lambda pair: as_value(name, numerics.layernormscale(name, *pair))


def _wrapping(fn: Callable, name: str) -> Callable[[Operation], ElementFn]:
    return lambda op: lambda a, b: as_value(name, fn(a, b))


ELEMENT_OPS.update(
    {
        "spyreop.exp": _intrinsic(numerics.exp),
        "spyreop.gelu": _intrinsic(numerics.gelu),
        "spyreop.sigmoid": _intrinsic(numerics.sigmoid),
        "spyreop.silu": _intrinsic(numerics.silu),
        "spyreop.sqrt": _intrinsic(numerics.sqrt),
        "spyreop.rsqrt": _intrinsic(numerics.rsqrt),
        "spyreop.reciprocal": _intrinsic(numerics.reciprocal),
        "spyreop.realdiv": _intrinsic(numerics.realdiv),
        "spyreop.layernormnorm": _intrinsic(numerics.layernormnorm),
        "spyreop.select": _intrinsic(numerics.select),
        "spyreop.softplus": _softplus,
        "spyreop.compare": _compare,
        "spyreop.layernormscale": _layernormscale,
        "spyreop.exx2_fused": _exx2_fused,
        "spyreop.layernormscale_fused": _layernormscale_fused,
        "spyreop.addi32toi32": _wrapping(numerics.addi32toi32, "i32"),
        "spyreop.muli32toi32": _wrapping(numerics.muli32toi32, "i32"),
        "spyreop.addi64toi64": _wrapping(numerics.addi64toi64, "i64"),
        "spyreop.idx32toaddr": _idx32toaddr,
    }
)

MULTI_RESULT_OPS: dict[str, Callable[[Operation], ElementFn]] = {
    "spyreop.exx2": lambda op: (
        lambda x: tuple(as_value(_result(op), part) for part in numerics.exx2(_result(op), x))
    ),
}
"""Elementwise ops with several results: the function returns a tuple."""


# ---------------------------------------------------------------------------------------
# Tensor-shaped helpers


def contract(
    maps: Sequence, a: np.ndarray, b: np.ndarray, init: np.ndarray, result: str
) -> np.ndarray:
    """``init + sum(a * b)`` over the dimensions the maps (projected permutations,
    the last one the output's) leave out, products and sums in float64 (int64 for
    integers), rounded once to the result type. numpy's own einsum loop, not BLAS:
    the same order of additions on every machine, and no thread pool to contend for."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    subscripts = ["".join(letters[expr.position] for expr in amap.results) for amap in maps]
    wide = np.float64 if result in numerics.FLOAT_TYPES else np.int64
    total = np.einsum(
        f"{subscripts[0]},{subscripts[1]}->{subscripts[2]}",
        a.astype(wide),
        b.astype(wide),
        optimize=False,
    )
    return np.array(as_value(result, init.astype(wide) + total))


def tree_fold(values: list[np.ndarray], combine: Callable[[list, list], list]) -> list[np.ndarray]:
    """Reduce the last axis of each array pairwise: the first half of the remaining
    elements is the accumulator, the second half the new values (``combine(new,
    accumulated)``, as a reduce body reads ``(in, out)``); an odd last element is
    carried to the next round."""
    length = values[0].shape[-1]
    while length > 1:
        half = length // 2
        folded = combine([v[..., half : 2 * half] for v in values], [v[..., :half] for v in values])
        if length % 2:
            folded = [
                np.concatenate([np.asarray(f), v[..., 2 * half :]], axis=-1)
                for f, v in zip(folded, values)
            ]
        values, length = [np.asarray(f) for f in folded], half + length % 2
    return [v[..., 0] for v in values]


def slices(
    offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int], shape: Sequence[int]
) -> tuple[slice, ...]:
    """The numpy slices of a ``tensor.extract_slice``/``insert_slice``, bounds checked."""
    result = []
    for offset, size, stride, extent in zip(offsets, sizes, strides, shape):
        last = offset + (size - 1) * stride
        if stride < 1 or size < 0 or (size and (offset < 0 or last >= extent)):
            raise ExecutionError(
                f"slice [offset {offset}, size {size}, stride {stride}] does not fit a "
                f"dimension of size {extent}"
            )
        result.append(slice(offset, offset + size * stride, stride))
    return tuple(result)


def mixed(static: Sequence[int], dynamic: Sequence[int]) -> list[int]:
    """A static list with its dynamic entries (``kDynamic``) filled in order."""
    values = iter(dynamic)
    return [next(values) if entry == DYNAMIC_INDEX else entry for entry in static]
