"""Element arithmetic of ktc: the fp16, fp32 and df16 formats and the spyreop intrinsics.

This module is the one place where element values are defined. The reference interpreter
and the cycle-level simulator both call it, so they agree by construction. It depends on
numpy only, and every function is vectorized over whole arrays.

**Element types.** An IR element type is named as in the IR's short spelling: ``f16``,
``f32``, ``f64``, ``df16`` (for ``!spyreop.df16``), ``i1``, ``i8``, ``i16``, ``i32``,
``i64`` and ``index``. Each has a *storage* dtype (how elements lie in memory) and a
*value* dtype (what numpy holds while computing). They differ only for df16, which is
stored as its 16-bit code (``uint16``) and held as ``float32`` values that are exactly
df16 values. ``index`` is held as a 64-bit integer, MLIR's default index width. bf16 is
not provided: neither Spyre nor the KTIR corpus uses it.

**df16** is IBM's DLFloat16 (NNP-data-format-1): 1 sign, 6 exponent, 9 fraction bits,
bias 31, value ``(-1)^s * 2^(e-31) * (1 + f/512)`` for every exponent field ``e`` in
[0, 63]; no subnormals; magnitude code 0x0000 is zero and 0x7FFF is the only special code,
NaN (there are no infinities); the largest finite magnitude is 0x7FFE (about 8.573e9).
Conversion from binary floating point rounds the magnitude half away from zero by adding
the rounding bit below the kept fraction bits, the carry running into the exponent; a
rebiased exponent below 0 flushes to a signed zero, and a magnitude above the largest
finite df16 (with Inf and NaN) becomes the NaN code with the sign kept. Two consequences
of this definition are kept on purpose: the pattern ``e = 0, f = 0`` stands for ``2^-31`` while
rounding, so every magnitude below ``2^-31 * (1 + 2^-10)`` encodes as zero (not only
those nearer to zero than to code 0x0001); and a magnitude just above the largest finite
value is NaN even where rounding to nearest would have given 0x7FFE.

**Intrinsics.** Each spyreop intrinsic is a function taking the element type name first
and then its operands, as arrays of values of that type. It evaluates its formula in
float64 and rounds the result once to the type with :func:`round_to`; a fused intrinsic
(``layernormnorm``, a reduction) is rounded once at the end, not after each step. float64
rather than float32, because numpy's float32 ``exp``/``log`` are not correctly rounded
and differ between the CPU's SIMD code paths (``exp(1)`` comes out one unit high on
AVX-512), which a golden model cannot allow; from float64 the result is the correctly
rounded one except in vanishingly rare near-ties, and +, -, *, / and sqrt are exactly
IEEE's. The hardware's own approximations are not public; the formulas below are the
mathematical definitions, with the choices written next to each function.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

# ---------------------------------------------------------------------------------------
# df16

DF16_NAN = 0x7FFF
"""The magnitude code of NaN, the only special df16 code."""

DF16_NMAX = 0x7FFE
"""The magnitude code of the largest finite df16 value."""

DF16_MAX = 2.0**32 * (1 + 510 / 512)
"""The largest finite df16 value, 8573157376.0."""

_DF16_FRACTION_BITS = 9
_DF16_BIAS = 31


@dataclass(frozen=True)
class _BinaryFormat:
    """The bit fields of an IEEE binary format that df16 is encoded from."""

    bits: type
    """The unsigned integer type of the same width."""
    fraction_bits: int
    bias: int


_SOURCE_FORMATS = {
    np.dtype(np.float32): _BinaryFormat(np.uint32, 23, 127),
    np.dtype(np.float64): _BinaryFormat(np.uint64, 52, 1023),
}


def df16_encode(x) -> np.ndarray:
    """The df16 codes (``uint16``) of float16, float32 or float64 values.

    float16 converts to float32 first, which is exact; float64 rounds from its own bits,
    never through float32, so there is no double rounding.
    """
    x = np.asarray(x)
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    fmt = _SOURCE_FORMATS.get(x.dtype)
    if fmt is None:
        raise TypeError(f"df16_encode expects float16, float32 or float64, not {x.dtype}")
    width = 8 * x.dtype.itemsize
    shift = fmt.fraction_bits - _DF16_FRACTION_BITS
    bits = x.view(fmt.bits)
    magnitude = bits & fmt.bits((1 << (width - 1)) - 1)
    # Exponent and fraction are adjacent, so one shift keeps the exponent and the top 9
    # fraction bits, and one subtraction rebiases; the rounding bit carries on its own.
    rounded = (magnitude + fmt.bits(1 << (shift - 1))) >> shift
    code = rounded.astype(np.int32) - ((fmt.bias - _DF16_BIAS) << _DF16_FRACTION_BITS)
    code = np.maximum(code, 0)
    code = np.where(magnitude > np.asarray(DF16_MAX, x.dtype).view(fmt.bits), DF16_NAN, code)
    sign = (bits >> (width - 16)).astype(np.uint16) & 0x8000
    return code.astype(np.uint16) | sign


def df16_decode(bits) -> np.ndarray:
    """The float32 values of df16 codes; every df16 value is exact in float32."""
    bits = np.asarray(bits, np.uint16).astype(np.uint32)
    magnitude = bits & 0x7FFF
    f32 = (magnitude << 14) + ((127 - _DF16_BIAS) << 23)
    f32 = np.where(magnitude == 0, 0, f32)
    f32 = np.where(magnitude == DF16_NAN, 0x7FC00000, f32)
    return (f32.astype(np.uint32) | ((bits & 0x8000) << 16)).view(np.float32)


def df16_round(x) -> np.ndarray:
    """``x`` rounded to df16, as float32: the rounding applied after every df16 operation."""
    return df16_decode(df16_encode(x))


# ---------------------------------------------------------------------------------------
# Element types


@dataclass(frozen=True)
class _ElementType:
    storage: np.dtype
    """How elements lie in memory."""
    values: np.dtype
    """What numpy holds the values in while computing."""
    round: Callable[[np.ndarray], np.ndarray]
    """Rounds (or, for integers, wraps) any computed result to the type, as ``values``."""
    to_storage: Callable[[np.ndarray], np.ndarray]
    from_storage: Callable[[np.ndarray], np.ndarray]
    round_quietly: Callable[[np.ndarray], np.ndarray]
    """``round`` without silencing numpy's floating-point warnings itself."""


def _plain(dtype) -> _ElementType:
    """A type stored as it is held; numpy's cast rounds half to even and wraps integers."""
    dtype = np.dtype(dtype)

    def convert(x):
        return np.asarray(x).astype(dtype, copy=False)

    def cast(x):
        if type(x) is np.ndarray and x.dtype == dtype:
            return x  # what the conversion returns, without entering np.errstate
        with np.errstate(all="ignore"):
            return convert(x)

    # Stored elements already have the value dtype: reading them converts nothing.
    return _ElementType(dtype, dtype, cast, cast, convert, convert)


def _round_i1(x) -> np.ndarray:
    return (np.asarray(x).astype(np.int64) & 1).astype(np.bool_)


_TYPES = {
    "f16": _plain(np.float16),
    "f32": _plain(np.float32),
    "f64": _plain(np.float64),
    "df16": _ElementType(
        np.dtype(np.uint16), np.dtype(np.float32), df16_round, df16_encode, df16_decode, df16_round
    ),
    "i1": _ElementType(np.dtype(np.bool_), np.dtype(np.bool_), _round_i1, _round_i1, _round_i1,
                       _round_i1),
    "i8": _plain(np.int8),
    "i16": _plain(np.int16),
    "i32": _plain(np.int32),
    "i64": _plain(np.int64),
    "index": _plain(np.int64),
}

FLOAT_TYPES = ("f16", "f32", "f64", "df16")
"""The element type names whose values are floating point."""


def _element_type(name: str) -> _ElementType:
    kind = _TYPES.get(name)
    if kind is None:
        raise ValueError(f"unknown element type '{name}'; expected one of {', '.join(_TYPES)}")
    return kind


@cache  # called per simulated instruction
def storage_dtype(name: str) -> np.dtype:
    """The numpy dtype in which elements of type ``name`` are laid out in memory."""
    return _element_type(name).storage


def value_dtype(name: str) -> np.dtype:
    """The numpy dtype in which values of type ``name`` are held while computing."""
    return _element_type(name).values


@cache  # called per simulated instruction
def bytes_per_element(name: str) -> int:
    return _element_type(name).storage.itemsize


def round_to(name: str, x) -> np.ndarray:
    """``x`` rounded to type ``name`` (half to even for IEEE types, df16's rule for df16)."""
    return _element_type(name).round(x)


@cache  # called per simulated instruction
def rounding(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """The function :func:`round_to` applies for type ``name``, for a caller that rounds
    many arrays under one ``np.errstate(all="ignore")`` of its own (the same values,
    without entering the context manager per call)."""
    return _element_type(name).round_quietly


def to_storage(name: str, values) -> np.ndarray:
    """Values of type ``name`` as they lie in memory (df16: their codes)."""
    return _element_type(name).to_storage(values)


def from_storage(name: str, raw) -> np.ndarray:
    """The values of elements of type ``name`` read from memory."""
    return _element_type(name).from_storage(raw)


# ---------------------------------------------------------------------------------------
# Floating-point intrinsics


def _float_op(ty: str, fn: Callable[..., np.ndarray], *operands) -> np.ndarray:
    """``fn`` applied in float64 to the operands, its result rounded once to ``ty``."""
    if ty not in FLOAT_TYPES:
        raise ValueError(f"expected a floating-point type, not '{ty}'")
    with np.errstate(all="ignore"):
        return rounding(ty)(fn(*(np.asarray(a, np.float64) for a in operands)))


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    """Phi(x) = erfc(-x / sqrt 2) / 2, with erfc by Numerical Recipes' ``erfcc``.

    The Chebyshev fit has a relative error below 1.2e-7 for erfc over all reals, so Phi
    keeps that relative error in both tails: far below the unit in the last place of f16
    and df16, the types the op allows, and within two units of f32's.
    """
    z = -x / np.sqrt(2.0)
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.5 * a)
    poly = np.polyval(
        [0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
         -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223],
        t,
    )
    erfc_a = t * np.exp(-a * a + poly)
    return 0.5 * np.where(z >= 0, erfc_a, 2.0 - erfc_a)


def exp(ty: str, x) -> np.ndarray:
    return _float_op(ty, np.exp, x)


def gelu(ty: str, x) -> np.ndarray:
    """``x * Phi(x)``, the erf form (the hardware's form is not public)."""
    return _float_op(ty, lambda v: v * _normal_cdf(v), x)


def sigmoid(ty: str, x) -> np.ndarray:
    return _float_op(ty, lambda v: 1 / (1 + np.exp(-v)), x)


def silu(ty: str, x) -> np.ndarray:
    return _float_op(ty, lambda v: v / (1 + np.exp(-v)), x)


def softplus(ty: str, x, beta: float, threshold: float) -> np.ndarray:
    """torch's Softplus: ``log(1 + exp(beta*x)) / beta``, and ``x`` where ``beta*x > threshold``."""

    def formula(v):
        bx = beta * v
        return np.where(bx > threshold, v, np.log1p(np.exp(bx)) / beta)

    return _float_op(ty, formula, x)


def sqrt(ty: str, x) -> np.ndarray:
    return _float_op(ty, np.sqrt, x)


def rsqrt(ty: str, x) -> np.ndarray:
    return _float_op(ty, lambda v: 1 / np.sqrt(v), x)


def reciprocal(ty: str, x) -> np.ndarray:
    return _float_op(ty, lambda v: 1 / v, x)


def realdiv(ty: str, a, b) -> np.ndarray:
    return _float_op(ty, np.divide, a, b)


def exx2(ty: str, x) -> tuple[np.ndarray, np.ndarray]:
    """``(x, x*x)`` elementwise.

    The op is scalar: the "mean and mean of squares" of one element are the element and
    its square. Means over a stick are formed afterwards (``slice_reduction`` with
    ``add`` and a scaling by 1/N).
    """
    return _float_op(ty, lambda v: v, x), _float_op(ty, np.square, x)


def layernormscale(ty: str, mean, squares, eps: float = 1e-5) -> np.ndarray:
    """``1 / sqrt(max(squares - mean*mean, 0) + eps)`` from the mean and the mean of squares.

    The op has no epsilon operand; ``eps`` defaults to torch's LayerNorm default. A
    variance made negative by rounding counts as 0.
    """

    def formula(m, sq):
        return 1 / np.sqrt(np.maximum(sq - m * m, 0) + eps)

    return _float_op(ty, formula, mean, squares)


def layernormnorm(ty: str, x, mean, scale, weight, bias) -> np.ndarray:
    """``(x - mean) * scale * weight + bias``, rounded once.

    ``mean`` is the operand spelled ``squares`` in the op's assembly: torch-spyre's
    decomposition passes the mean there.
    """
    return _float_op(ty, lambda v, m, s, w, b: (v - m) * s * w + b, x, mean, scale, weight, bias)


def select(ty: str, condition, true_value, false_value) -> np.ndarray:
    """``true_value`` where ``condition`` is non-zero (NaN is non-zero), else ``false_value``."""
    return _float_op(ty, lambda c, t, f: np.where(c != 0, t, f), condition, true_value, false_value)


_PREDICATES = {
    "equal": np.equal,
    "notequal": np.not_equal,
    "greaterthan": np.greater,
    "greaterequal": np.greater_equal,
    "lesserthan": np.less,
    "lesserequal": np.less_equal,
}


def compare(ty: str, predicate: str, a, b) -> np.ndarray:
    """1.0 where ``a <predicate> b`` holds, else 0.0, in type ``ty``; IEEE rules for NaN
    (only ``notequal`` holds)."""
    test = _PREDICATES.get(predicate)
    if test is None:
        known = ", ".join(_PREDICATES)
        raise ValueError(f"unknown compare predicate '{predicate}'; expected one of {known}")
    return _float_op(ty, lambda p, q: test(p, q).astype(np.float64), a, b)


# ---------------------------------------------------------------------------------------
# Integer and address intrinsics (two's complement, wrapping)


def _wrapping(signed, fn: Callable[..., np.ndarray], *operands) -> np.ndarray:
    """``fn`` on the operands as unsigned integers of ``signed``'s width, modulo 2^width."""
    unsigned = np.dtype(f"u{np.dtype(signed).itemsize}")
    with np.errstate(over="ignore"):
        result = fn(*(np.asarray(a, signed).astype(unsigned) for a in operands))
    return np.asarray(result, unsigned).view(signed)


def addi32toi32(a, b) -> np.ndarray:
    return _wrapping(np.int32, np.add, a, b)


def addi64toi64(a, b) -> np.ndarray:
    return _wrapping(np.int64, np.add, a, b)


def muli32toi32(a, b) -> np.ndarray:
    return _wrapping(np.int32, np.multiply, a, b)


def idx32toaddr(index, base, stride) -> np.ndarray:
    """The address ``base + stride * index`` in i32 arithmetic."""
    return _wrapping(np.int32, lambda i, b, s: b + s * i, index, base, stride)


# ---------------------------------------------------------------------------------------
# slice_reduction

_REDUCTIONS = {
    "add": np.add,
    "sub": np.subtract,
    "max": np.maximum,
    "min": np.minimum,
    "mul": np.multiply,
    "abs_max": np.maximum,
}


def slice_reduction(ty: str, kind: str, scope: str, x, stick: int) -> np.ndarray:
    """The SIMD reduction of a tensor, a stick (``stick`` elements) at a time.

    The tensor is read row-major as consecutive slices of ``stick`` elements. With scope
    ``in_slice`` the first element of each slice receives the reduction of that slice;
    with ``across_slice`` the first slice receives the element-wise reduction over all
    slices. Every other element keeps its input value. The reduction is a left fold in
    float64 (``sub`` is ``x0 - x1 - x2 - ...``; ``abs_max`` is the largest magnitude),
    rounded once to ``ty``.
    """
    op = _REDUCTIONS.get(kind)
    if op is None:
        known = ", ".join(_REDUCTIONS)
        raise ValueError(f"unknown reduction kind '{kind}'; expected one of {known}")
    if scope not in ("in_slice", "across_slice"):
        raise ValueError(f"unknown reduction scope '{scope}'; expected in_slice or across_slice")
    x = np.asarray(x)
    if stick <= 0 or x.size % stick:
        raise ValueError(
            f"a tensor of {x.size} elements is not a whole number of {stick}-element slices"
        )
    slices = x.astype(np.float64).reshape(-1, stick)
    operands = np.abs(slices) if kind == "abs_max" else slices
    axis = 1 if scope == "in_slice" else 0
    with np.errstate(all="ignore"):
        folded = np.take(op.accumulate(operands, axis=axis), -1, axis=axis)
    result = slices.copy()
    if scope == "in_slice":
        result[:, 0] = folded
    else:
        result[0, :] = folded
    return round_to(ty, result).reshape(x.shape)
