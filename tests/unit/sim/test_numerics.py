"""The element numerics: df16 against its definition, the IEEE types, the spyreop formulas.

Every expected value here is computed independently of ``ktc.sim.numerics``: df16 codes
from the definition with plain Python floats, a nearest-code search over the table of all
codes, and intrinsic results from float64 math rounded to the type.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ktc.sim import numerics as nm

RNG = np.random.default_rng(20240531)

# ---------------------------------------------------------------------------------------
# df16 reference: the definition, written out in plain Python


def reference_decode(code: int) -> float:
    """(-1)^s * 2^(e-31) * (1 + f/512); magnitude 0 is a signed zero, 0x7FFF is NaN."""
    sign = -1.0 if code & 0x8000 else 1.0
    magnitude = code & 0x7FFF
    if magnitude == 0x7FFF:
        return math.nan
    if magnitude == 0:
        return sign * 0.0
    e, f = magnitude >> 9, magnitude & 0x1FF
    return sign * 2.0 ** (e - 31) * (1 + f / 512)


# The value each finite magnitude code stands for while rounding. The pattern e = 0,
# f = 0 stands for 2^-31 (it decodes to zero): the definition adds the rounding bit and
# keeps the pattern, and flushes only a rebiased exponent below 0.
GRID = np.array([2.0 ** ((k >> 9) - 31) * (1 + (k & 0x1FF) / 512) for k in range(0x7FFF)])


def reference_encode(x: np.ndarray) -> np.ndarray:
    """The nearest code on GRID, ties away from zero; below GRID[0] gives code 0; NaN,
    infinities and magnitudes above the largest finite value give 0x7FFF; sign kept."""
    with np.errstate(invalid="ignore"):  # signalling NaNs among random bit patterns
        a = np.abs(x.astype(np.float64))
    upper = np.clip(np.searchsorted(GRID, a), 1, len(GRID) - 1)
    midpoint = (GRID[upper - 1] + GRID[upper]) / 2
    code = np.where(a >= midpoint, upper, upper - 1)
    code = np.where(a <= GRID[0], 0, code)
    code = np.where(np.isnan(a) | (a > GRID[-1]), 0x7FFF, code)
    return (code | np.where(np.signbit(x), 0x8000, 0)).astype(np.uint16)


def hard_cases(dtype) -> np.ndarray:
    """Ties halfway between codes and their neighbours, the NaN and flush thresholds,
    and infinities, in ``dtype``, both signs."""
    ties = ((GRID[:-1] + GRID[1:]) / 2).astype(dtype)
    edges = np.array([GRID[0], GRID[0] / 2, GRID[1], GRID[-1], nm.DF16_MAX, 2.0**-32,
                      65504.0, np.inf], dtype)
    around = np.concatenate([ties, edges])
    cases = np.concatenate([around, np.nextafter(around, np.inf), np.nextafter(around, 0)])
    return np.concatenate([cases, -cases, np.array([0.0, np.nan], dtype)])


# ---------------------------------------------------------------------------------------
# df16


@pytest.mark.parametrize(
    "value, code, decoded",
    [
        (1.0, 0x3E00, 1.0),
        (-2.0, 0xC000, -2.0),
        (0.5, 0x3C00, 0.5),
        (0.0123456789, 0x3129, 0.01234436),
        (65504.0, 0x5E00, 65536.0),
        (3.0e9, 0x7CCB, 2998927360.0),
        (1e10, 0x7FFF, math.nan),
        (math.inf, 0x7FFF, math.nan),
        (1e-10, 0x0000, 0.0),
    ],
)
def test_df16_reference_vectors(value, code, decoded):
    for dtype in (np.float32, np.float64):
        assert int(nm.df16_encode(np.array(value, dtype))) == code
    np.testing.assert_allclose(nm.df16_decode(np.uint16(code)), decoded, rtol=1e-7)


def test_df16_decode_every_code():
    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    expected = np.array([reference_decode(int(c)) for c in codes], np.float64)
    got = nm.df16_decode(codes)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.astype(np.float64), expected)
    assert np.array_equal(np.signbit(got), codes >= 0x8000)


def test_df16_every_code_round_trips():
    """Every code comes back from its decoded value, from f32 and from f64, including
    -0 (0x8000, sign kept) and both NaN codes (0x7FFF and 0xFFFF: NaN keeps its sign)."""
    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    values = nm.df16_decode(codes)
    np.testing.assert_array_equal(nm.df16_encode(values), codes)
    np.testing.assert_array_equal(nm.df16_encode(values.astype(np.float64)), codes)


def test_df16_encode_f32_against_nearest_code():
    random_bits = RNG.integers(0, 1 << 32, 1_000_000, dtype=np.uint64).astype(np.uint32)
    in_range = (RNG.uniform(-33, 33, 1_000_000) * np.log(2)).astype(np.float32)
    signs = RNG.choice(np.array([-1, 1], np.float32), in_range.size)
    x = np.concatenate(
        [random_bits.view(np.float32), np.exp(in_range) * signs, hard_cases(np.float32)]
    )
    assert x.dtype == np.float32
    np.testing.assert_array_equal(nm.df16_encode(x), reference_encode(x))


def test_df16_encode_f64_against_nearest_code():
    x = np.concatenate([RNG.standard_normal(500_000) * 10.0 ** RNG.integers(-10, 10, 500_000),
                        hard_cases(np.float64)])
    np.testing.assert_array_equal(nm.df16_encode(x), reference_encode(x))


@given(st.floats(width=32))
def test_df16_encode_any_f32(value):
    x = np.array([value], np.float32)
    np.testing.assert_array_equal(nm.df16_encode(x), reference_encode(x))


def test_df16_thresholds():
    """Magnitudes below 2^-31 * (1 + 2^-10) flush to zero; above the largest finite
    value is NaN; the tie at the first step rounds away from zero."""
    tie = np.float32(2.0**-31 * (1 + 2.0**-10))
    assert int(nm.df16_encode(tie)) == 0x0001
    assert int(nm.df16_encode(np.nextafter(tie, np.float32(0)))) == 0x0000
    assert int(nm.df16_encode(-tie)) == 0x8001
    assert int(nm.df16_encode(np.float32(-1e-10))) == 0x8000
    top = np.float32(nm.DF16_MAX)
    assert int(nm.df16_encode(top)) == nm.DF16_NMAX
    assert int(nm.df16_encode(np.nextafter(top, np.float32(np.inf)))) == nm.DF16_NAN
    assert int(nm.df16_encode(-np.float32(np.nan))) == 0xFFFF


def test_df16_f64_is_not_rounded_through_f32():
    """Just below the tie between 1 + 2^-9 and 1 + 2^-8: float32 rounds it onto the tie,
    which then rounds away; df16 from the float64 value rounds down."""
    tie = 1 + 3 * 2.0**-10
    x = tie - 2.0**-40
    assert np.float32(x) == tie
    assert int(nm.df16_encode(np.float64(x))) == 0x3E01
    assert int(nm.df16_encode(np.float32(x))) == 0x3E02


def test_df16_encode_keeps_shape_and_accepts_f16():
    x = np.array([[1.0, -2.0], [0.5, 65504.0]], np.float16)
    np.testing.assert_array_equal(nm.df16_encode(x), [[0x3E00, 0xC000], [0x3C00, 0x5E00]])
    np.testing.assert_array_equal(nm.df16_encode(x[:, ::-1]), [[0xC000, 0x3E00], [0x5E00, 0x3C00]])
    with pytest.raises(TypeError, match="float16, float32 or float64"):
        nm.df16_encode(np.array([1], np.int32))


def test_df16_round_is_decode_of_encode():
    x = RNG.standard_normal(10_000).astype(np.float32)
    got = nm.df16_round(x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, nm.df16_decode(reference_encode(x)))


# ---------------------------------------------------------------------------------------
# Element types


@pytest.mark.parametrize(
    "name, storage, values, size",
    [
        ("f16", np.float16, np.float16, 2),
        ("f32", np.float32, np.float32, 4),
        ("f64", np.float64, np.float64, 8),
        ("df16", np.uint16, np.float32, 2),
        ("i1", np.bool_, np.bool_, 1),
        ("i8", np.int8, np.int8, 1),
        ("i16", np.int16, np.int16, 2),
        ("i32", np.int32, np.int32, 4),
        ("i64", np.int64, np.int64, 8),
        ("index", np.int64, np.int64, 8),
    ],
)
def test_element_type_table(name, storage, values, size):
    assert nm.storage_dtype(name) == storage
    assert nm.value_dtype(name) == values
    assert nm.bytes_per_element(name) == size


def test_unknown_element_type():
    with pytest.raises(ValueError, match="unknown element type 'bf16'"):
        nm.storage_dtype("bf16")


def test_round_to_ieee_is_half_to_even():
    x = np.array([2049.0, 2051.0, 1 + 2.0**-11, 70000.0], np.float32)
    expected = np.array([2048, 2052, 1, np.inf], np.float16)
    np.testing.assert_array_equal(nm.round_to("f16", x), expected)
    assert nm.round_to("f32", np.float64(1 + 2.0**-24)) == np.float32(1)
    assert nm.round_to("f32", np.float64(1 + 3 * 2.0**-24)) == np.float32(1 + 2.0**-22)


def test_round_to_df16_and_integers():
    tie = np.array([1 + 2.0**-10], np.float32)
    np.testing.assert_array_equal(nm.round_to("df16", tie), [1 + 2.0**-9])
    np.testing.assert_array_equal(nm.round_to("i32", np.array([2**31, -(2**31) - 1], np.int64)),
                                  [-(2**31), 2**31 - 1])
    np.testing.assert_array_equal(nm.round_to("i8", np.array([200], np.int32)), [-56])
    np.testing.assert_array_equal(nm.round_to("i1", np.arange(4)), [False, True, False, True])


@pytest.mark.parametrize("name", ["f16", "f32", "f64", "df16", "i1", "i8", "i16", "i32", "i64"])
def test_rounding_gives_the_bits_of_round_to(name):
    """The simulator rounds through ``rounding(name)`` under one ``np.errstate`` of its
    own: the same bits as ``round_to``, overflow, infinities and NaN included."""
    x = np.concatenate([RNG.standard_normal(1000) * 1e5, [np.nan, np.inf, -np.inf, 1e300, -0.0]])
    with np.errstate(all="ignore"):
        got = nm.rounding(name)(x)
        want = nm.round_to(name, x)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_storage_round_trip():
    values = nm.df16_round(RNG.standard_normal(1000).astype(np.float32))
    raw = nm.to_storage("df16", values)
    assert raw.dtype == np.uint16
    np.testing.assert_array_equal(nm.from_storage("df16", raw), values)
    halves = RNG.standard_normal(1000).astype(np.float16)
    assert nm.to_storage("f16", halves).tobytes() == halves.tobytes()


# ---------------------------------------------------------------------------------------
# Floating-point intrinsics

FLOATS = ["f16", "f32", "df16"]
ULP = {"f16": 2.0**-10, "f32": 2.0**-23, "df16": 2.0**-9}
"""A relative tolerance of one unit in the last place: the reference uses Python's libm,
the module numpy's; both are within a unit of float64, so they round apart only at ties."""


def values_of(ty: str, low: float, high: float, n: int = 4096) -> np.ndarray:
    """Random values of type ``ty`` in [low, high], held in its value dtype."""
    return nm.round_to(ty, RNG.uniform(low, high, n).astype(np.float32))


def check_close(ty: str, got: np.ndarray, expected_f64: np.ndarray, ulps: int = 1):
    """``got`` has ``ty``'s value dtype, holds values of ``ty``, and is within ``ulps``
    units in the last place of the float64 result rounded to ``ty``."""
    assert got.dtype == nm.value_dtype(ty)
    np.testing.assert_array_equal(nm.round_to(ty, got), got)
    expected = nm.round_to(ty, expected_f64).astype(np.float64)
    np.testing.assert_allclose(got.astype(np.float64), expected, rtol=ulps * ULP[ty], atol=1e-45)


def elementwise(formula):
    """``formula`` on Python floats, applied to each element: the float64 reference."""
    return lambda x: np.array([formula(float(v)) for v in x])


def normal_cdf(v: float) -> float:
    return 0.5 * math.erfc(-v / math.sqrt(2))


def exact(ty: str) -> int:
    return 0


def erfc_fit(ty: str) -> int:
    """gelu's erfc fit (relative error 1.2e-7) is far below f16's and df16's resolution
    but can put f32 a unit off, a type the op does not allow anyway."""
    return 1 if ty == "f32" else 0


UNARY = {
    # name: (function, float64 reference, operand range, ulps allowed beyond correct rounding)
    "exp": (nm.exp, elementwise(math.exp), (-8, 8), exact),
    "gelu": (nm.gelu, elementwise(lambda v: v * normal_cdf(v)), (-6, 6), erfc_fit),
    "sigmoid": (nm.sigmoid, elementwise(lambda v: 1 / (1 + math.exp(-v))), (-20, 20), exact),
    "silu": (nm.silu, elementwise(lambda v: v / (1 + math.exp(-v))), (-20, 20), exact),
    "sqrt": (nm.sqrt, elementwise(math.sqrt), (0, 1000), exact),
    "rsqrt": (nm.rsqrt, elementwise(lambda v: 1 / math.sqrt(v)), (0.01, 1000), exact),
    "reciprocal": (nm.reciprocal, elementwise(lambda v: 1 / v), (0.01, 1000), exact),
}


@pytest.mark.parametrize("ty", FLOATS)
@pytest.mark.parametrize("name", UNARY)
def test_unary_intrinsic_on_random_values(name, ty):
    """Within one unit of the reference (two libms may round a near-tie apart)."""
    function, reference, (low, high), extra = UNARY[name]
    x = values_of(ty, low, high)
    check_close(ty, function(ty, x), reference(x), 1 + extra(ty))


@pytest.mark.parametrize(
    "name, x, expected",
    [
        ("exp", 0.0, 1.0),
        ("exp", 1.0, math.e),
        ("gelu", 0.0, 0.0),
        ("gelu", 1.0, 0.8413447460685429),
        ("gelu", -1.0, -0.15865525393145707),
        ("sigmoid", 0.0, 0.5),
        ("sigmoid", -100.0, 1 / (1 + math.exp(100))),
        ("silu", 0.0, 0.0),
        ("silu", 2.0, 2 / (1 + math.exp(-2))),
        ("sqrt", 4.0, 2.0),
        ("rsqrt", 4.0, 0.5),
        ("reciprocal", 4.0, 0.25),
        ("reciprocal", 0.0, math.inf),
    ],
)
@pytest.mark.parametrize("ty", FLOATS)
def test_unary_intrinsic_at_hand_checked_points(name, x, expected, ty):
    function, _, _, extra = UNARY[name]
    check_close(ty, function(ty, np.array([x], np.float32)), np.array([expected]), extra(ty))


def test_gelu_cdf_accuracy():
    """The erfc fit behind gelu: relative error of Phi below 2e-7 against math.erfc over
    [-12, 12] (both tails), absolute error below 1e-7."""
    x = np.linspace(-12, 12, 24001)
    expected = elementwise(normal_cdf)(x)
    got = nm._normal_cdf(x)
    assert np.max(np.abs(got - expected) / expected) < 2e-7
    assert np.max(np.abs(got - expected)) < 1e-7


@pytest.mark.parametrize("ty", FLOATS)
def test_realdiv(ty):
    a, b = values_of(ty, -100, 100), values_of(ty, 0.5, 100)
    check_close(ty, nm.realdiv(ty, a, b), a.astype(np.float64) / b)
    np.testing.assert_array_equal(nm.realdiv(ty, [1.0], [3.0]), nm.round_to(ty, np.array([1 / 3])))


@pytest.mark.parametrize("ty", FLOATS)
def test_softplus(ty):
    x = values_of(ty, -10, 10)
    beta, threshold = 2.0, 5.0
    expected = elementwise(
        lambda v: v if beta * v > threshold else math.log1p(math.exp(beta * v)) / beta
    )(x)
    check_close(ty, nm.softplus(ty, x, beta, threshold), expected)


def test_softplus_points():
    """torch semantics: x itself once beta*x exceeds the threshold."""
    assert nm.softplus("f32", [1.0], 1.0, 20.0)[0] == np.float32(math.log1p(math.e))
    np.testing.assert_array_equal(nm.softplus("f32", [11.0, 9.0], 2.0, 20.0),
                                  [11.0, np.float32(math.log1p(math.exp(18.0)) / 2)])
    np.testing.assert_array_equal(nm.softplus("df16", [5.0], 2.0, 20.0), [5.0])


@pytest.mark.parametrize("ty", FLOATS)
def test_exx2(ty):
    x = values_of(ty, -50, 50)
    value, square = nm.exx2(ty, x)
    np.testing.assert_array_equal(value, x)
    check_close(ty, square, x.astype(np.float64) ** 2)


def test_layernormscale_points():
    assert nm.layernormscale("f32", [1.0], [5.0], eps=0.0)[0] == 0.5
    assert nm.layernormscale("f32", [2.0], [3.5], eps=0.25)[0] == 2.0
    no_variance = nm.layernormscale("f16", [3.0], [4.0])
    np.testing.assert_array_equal(no_variance, nm.round_to("f16", np.array([1e-5**-0.5])))


def test_layernormnorm_points():
    assert nm.layernormnorm("f32", [3.0], [1.0], [0.5], [2.0], [1.0])[0] == 3.0
    assert nm.layernormnorm("df16", [3.0], [1.0], [0.5], [-2.0], [0.25])[0] == -1.75


@pytest.mark.parametrize("ty", FLOATS)
def test_layernorm_steps_on_random_values(ty):
    mean, x = values_of(ty, -2, 2), values_of(ty, -4, 4)
    variance = values_of(ty, 0.5, 4).astype(np.float32)
    squares = nm.round_to(ty, mean.astype(np.float32) ** 2 + variance)
    m64, sq64 = mean.astype(np.float64), squares.astype(np.float64)
    scale = nm.layernormscale(ty, mean, squares, eps=1e-5)
    check_close(ty, scale, 1 / np.sqrt(sq64 - m64 * m64 + 1e-5))
    weight, bias = values_of(ty, 0.5, 2), values_of(ty, -1, 1)
    w64, b64, s64 = weight.astype(np.float64), bias.astype(np.float64), scale.astype(np.float64)
    got = nm.layernormnorm(ty, x, mean, scale, weight, bias)
    expected = (x.astype(np.float64) - m64) * s64 * w64 + b64
    # The f32 computation cancels in x - mean and near -bias; allow one unit of the
    # operands' magnitude rather than of the result.
    np.testing.assert_allclose(got.astype(np.float64), nm.round_to(ty, expected).astype(np.float64),
                               rtol=ULP[ty], atol=ULP[ty] * 16)


def test_layernorm_over_a_stick_matches_the_textbook_formula():
    """exx2, an add reduction scaled by 1/N, layernormscale and layernormnorm compose to
    (x - mean) / sqrt(var + eps) * weight + bias in f32."""
    stick = 64
    x = RNG.standard_normal(stick).astype(np.float32) * 3 + 1
    weight = RNG.uniform(0.5, 2, stick).astype(np.float32)
    bias = RNG.uniform(-1, 1, stick).astype(np.float32)
    value, square = nm.exx2("f32", x)
    sums = [nm.slice_reduction("f32", "add", "in_slice", v, stick)[0] for v in (value, square)]
    mean, squares = (np.full(stick, s / stick, np.float32) for s in sums)
    scale = nm.layernormscale("f32", mean, squares, eps=1e-5)
    got = nm.layernormnorm("f32", x, mean, scale, weight, bias)
    x64 = x.astype(np.float64)
    expected = (x64 - x64.mean()) / np.sqrt(x64.var() + 1e-5) * weight + bias
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("ty", FLOATS)
def test_select(ty):
    got = nm.select(ty, [0.0, 1.0, -2.0, np.nan], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0])
    assert got.dtype == nm.value_dtype(ty)
    np.testing.assert_array_equal(got, [5.0, 2.0, 3.0, 4.0])


@pytest.mark.parametrize(
    "predicate, expected",
    [
        ("equal", [0, 1, 0, 0]),
        ("notequal", [1, 0, 1, 1]),
        ("greaterthan", [0, 0, 1, 0]),
        ("greaterequal", [0, 1, 1, 0]),
        ("lesserthan", [1, 0, 0, 0]),
        ("lesserequal", [1, 1, 0, 0]),
    ],
)
@pytest.mark.parametrize("ty", FLOATS)
def test_compare(predicate, expected, ty):
    got = nm.compare(ty, predicate, [1.0, 2.0, 3.0, np.nan], [2.0, 2.0, 2.0, 2.0])
    assert got.dtype == nm.value_dtype(ty)
    np.testing.assert_array_equal(got, expected)


def test_intrinsic_argument_errors():
    with pytest.raises(ValueError, match="unknown compare predicate 'less'"):
        nm.compare("f32", "less", [1.0], [2.0])
    with pytest.raises(ValueError, match="expected a floating-point type, not 'i32'"):
        nm.exp("i32", [1])


# ---------------------------------------------------------------------------------------
# Integer and address intrinsics


def wrap(value: int, bits: int) -> int:
    return (value + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))


def test_integer_intrinsics_wrap_around():
    assert nm.addi32toi32(2**31 - 1, 1) == -(2**31)
    assert nm.addi32toi32(-(2**31), -1) == 2**31 - 1
    assert nm.muli32toi32(65536, 65536) == 0
    assert nm.muli32toi32(46341, 46341) == wrap(46341 * 46341, 32)
    assert nm.addi64toi64(2**63 - 1, 1) == -(2**63)
    assert nm.idx32toaddr(3, 0x7FFFFFF0, 8) == wrap(0x7FFFFFF0 + 24, 32)
    assert nm.idx32toaddr(5, 0x1000, 4) == 0x1014


@pytest.mark.parametrize(
    "function, bits, formula",
    [
        (nm.addi32toi32, 32, lambda a, b: a + b),
        (nm.muli32toi32, 32, lambda a, b: a * b),
        (nm.addi64toi64, 64, lambda a, b: a + b),
    ],
)
def test_integer_intrinsics_on_random_values(function, bits, formula):
    a, b = RNG.integers(-(2 ** (bits - 1)), 2 ** (bits - 1), (2, 2000), dtype=np.int64)
    got = function(a, b)
    assert got.dtype == np.dtype(f"i{bits // 8}")
    assert got.tolist() == [wrap(formula(int(p), int(q)), bits) for p, q in zip(a, b)]


def test_idx32toaddr_on_random_values():
    i, b, s = RNG.integers(-(2**31), 2**31, (3, 2000), dtype=np.int64)
    got = nm.idx32toaddr(i.astype(np.int32), b.astype(np.int32), s.astype(np.int32))
    assert got.dtype == np.int32
    assert got.tolist() == [wrap(int(p) + int(q) * int(r), 32) for r, p, q in zip(i, b, s)]


# ---------------------------------------------------------------------------------------
# slice_reduction

SLICES = [1.0, -5.0, 3.0, 2.0, 4.0, 0.0, -1.0, 6.0]


@pytest.mark.parametrize(
    "kind, in_slice, across_slice",
    [
        ("add", [1, 9], [5, -5, 2, 8]),
        ("sub", [1, -1], [-3, -5, 4, -4]),
        ("max", [3, 6], [4, 0, 3, 6]),
        ("min", [-5, -1], [1, -5, -1, 2]),
        ("mul", [-30, 0], [4, 0, -3, 12]),
        ("abs_max", [5, 6], [4, 5, 3, 6]),
    ],
)
@pytest.mark.parametrize("ty", FLOATS)
def test_slice_reduction(kind, in_slice, across_slice, ty):
    """Two 4-element slices; the reduction lands in the first element of each slice
    (in_slice) or in the first slice (across_slice); the rest is unchanged."""
    x = nm.round_to(ty, np.array(SLICES, np.float32))
    got = nm.slice_reduction(ty, kind, "in_slice", x, 4)
    assert got.dtype == nm.value_dtype(ty)
    np.testing.assert_array_equal(got, [in_slice[0], *SLICES[1:4], in_slice[1], *SLICES[5:]])
    got = nm.slice_reduction(ty, kind, "across_slice", x, 4)
    np.testing.assert_array_equal(got, across_slice + SLICES[4:])


def test_slice_reduction_keeps_the_shape():
    x = np.array(SLICES, np.float32).reshape(2, 4)
    got = nm.slice_reduction("f32", "add", "in_slice", x, 4)
    np.testing.assert_array_equal(got, [[1, -5, 3, 2], [9, 0, -1, 6]])


def test_slice_reduction_is_rounded_once():
    """Nothing is rounded to the type before the end: in f32 1e8 + 1 - 1e8 + 1 = 2 (f32
    steps give 1), and in f16 2048 + 1 + 1 = 2050 (f16 steps give 2048)."""
    singles = np.array([1e8, 1, -1e8, 1], np.float32)
    folded = nm.slice_reduction("f32", "add", "in_slice", singles, 4)
    assert folded[0] == 2.0
    halves = np.array([2048, 1, 1, 0], np.float16)
    assert nm.slice_reduction("f16", "add", "in_slice", halves, 4)[0] == 2050


def test_slice_reduction_errors():
    with pytest.raises(ValueError, match="not a whole number of 4-element slices"):
        nm.slice_reduction("f32", "add", "in_slice", np.zeros(6), 4)
    with pytest.raises(ValueError, match="unknown reduction kind 'avg'"):
        nm.slice_reduction("f32", "avg", "in_slice", np.zeros(4), 4)
    with pytest.raises(ValueError, match="unknown reduction scope 'global'"):
        nm.slice_reduction("f32", "add", "global", np.zeros(4), 4)
