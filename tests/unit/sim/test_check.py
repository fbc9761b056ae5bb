"""The one comparison rule of ``ktc.sim.check``: bit-exact for kernels that do not
reduce; per element ``|got - ref| <= atol + rtol * |ref|`` for reductions, rtol from the
element type and the reduction's length, atol from the largest finite reference value;
NaN and infinities matched in place and sign; the reduction length read from kernels."""

import math
from pathlib import Path

import numpy as np
import pytest

from conftest import CORPUS
from ktc.dialects.diagnostics import KtcError
from ktc.sim import numerics
from ktc.sim.check import Mismatch, compare, reduction_length, rule, tolerance
from ktc.sim.reference import Kernel

ROOT = Path(__file__).resolve().parents[3]
U16, U32 = 2.0**-11, 2.0**-24


def _f16(*values) -> np.ndarray:
    return np.array(values, np.float16)


def test_tolerance_is_unit_roundoff_times_the_roundings_of_a_sum():
    """f16 sums are accumulated wide, so they are within the reference's pairwise
    error, 2 + log2(n) roundings; f32 sums gather 2 + sqrt(n) in lane order."""
    assert tolerance("f16", 1) == tolerance("f32", 0) == 0.0
    assert tolerance("f16", 256) == U16 * 10
    assert tolerance("f16", 262144) == U16 * 20
    assert tolerance("f32", 1024) == U32 * 34
    assert tolerance("i32", 1024) == 0.0
    assert tolerance("f16", 262144) < 0.01


def test_equal_arrays_match():
    x = {"y": _f16(1, 2, 3)}
    assert compare(x, {"y": x["y"].copy()}, {"y": "f16"}, 1) is None
    assert compare(x, {"y": x["y"].copy()}, {"y": "f16"}, 256) is None


def test_without_a_reduction_one_ulp_differs_and_the_first_element_is_named():
    want = np.arange(12, dtype=np.float16).reshape(3, 4)
    got = want.copy()
    got[1, 2] = np.nextafter(got[1, 2], np.float16(np.inf))
    got[2, 0] = -1
    mismatch = compare({"y": got}, {"y": want}, {"y": "f16"}, 1)
    assert mismatch == Mismatch("y", (1, 2), got[1, 2], want[1, 2], 2, 12, 0.0)
    assert str(mismatch) == ("%y differs at [1, 2]: 6.00390625 (simulator) vs 6.0 (reference); "
                             "2 of 12 elements differ")


def test_without_a_reduction_signed_zeros_differ_and_nans_are_alike():
    assert compare({"y": _f16(-0.0)}, {"y": _f16(0.0)}, {"y": "f16"}, 1)
    assert compare({"y": _f16(np.nan)}, {"y": _f16(np.nan)}, {"y": "f16"}, 1) is None


def test_a_reduction_allows_its_bound_and_not_more():
    """Reductions of 256 terms: rtol = 10 u; the bound at 100 is rtol (100 + 1000)."""
    want = _f16(1, 100, 1000)
    bound = 10 * U16 * (100 + 1000)
    near, far = want.copy(), want.copy()
    near[1] = np.float16(100 + 0.9 * bound)
    far[1] = np.float16(100 + 1.2 * bound)
    assert compare({"y": near}, {"y": want}, {"y": "f16"}, 256) is None
    mismatch = compare({"y": far}, {"y": want}, {"y": "f16"}, 256)
    assert (mismatch.index, mismatch.count) == ((1,), 1)
    assert mismatch.allowed == pytest.approx(bound)


def test_the_absolute_part_has_no_floor_of_one():
    """Outputs near 1e-5: a 1% change of the largest is caught (the old floor,
    2^-6 * max(1, max|ref|), let 17% through)."""
    want = np.linspace(1e-6, 1e-5, 16).astype(np.float32)
    got = want.copy()
    got[-1] *= 1.01
    assert compare({"y": got}, {"y": want}, {"y": "f32"}, 1024) is not None
    got[-1] = want[-1] * (1 + tolerance("f32", 1024))
    assert compare({"y": got}, {"y": want}, {"y": "f32"}, 1024) is None


def test_infinities_do_not_widen_the_tolerance_and_must_match_in_place_and_sign():
    want = np.array([1.0, np.inf, 2.0, -np.inf, np.nan], np.float32)
    got = want.copy()
    assert compare({"y": got}, {"y": want}, {"y": "f32"}, 256) is None
    off = got.copy()
    off[0] = 1.01
    assert compare({"y": off}, {"y": want}, {"y": "f32"}, 256).index == (0,)
    for index, value in ((1, -np.inf), (1, 3.0), (3, np.nan), (4, 5.0), (2, np.inf), (2, np.nan)):
        changed = got.copy()
        changed[index] = value
        mismatch = compare({"y": changed}, {"y": want}, {"y": "f32"}, 256)
        assert mismatch is not None and mismatch.index == (index,), (index, value)


def test_integers_are_exact_and_df16_is_compared_by_value():
    ints = np.array([5, 6], np.int32)
    got = ints.copy()
    got[1] += 1
    assert compare({"i": got}, {"i": ints}, {"i": "i32"}, 1024).index == (1,)
    want = numerics.to_storage("df16", numerics.round_to("df16", np.array([1.0, 2.0])))
    got = numerics.to_storage("df16", numerics.round_to("df16", np.array([1.0, 3.0])))
    mismatch = compare({"d": got}, {"d": want}, {"d": "df16"}, 16)
    assert (mismatch.index, float(mismatch.actual), float(mismatch.expected)) == ((1,), 3.0, 2.0)


def test_shapes_or_dtypes_that_disagree_are_an_error():
    with pytest.raises(KtcError, match=r"%y: the simulator returned float16\[2\], the reference float16\[3\]"):
        compare({"y": _f16(1, 2)}, {"y": _f16(1, 2, 3)}, {"y": "f16"}, 1)


@pytest.mark.parametrize("example, length", [
    ("add", 1), ("silu_mul", 1), ("row_sum", 256), ("softmax", 256), ("rmsnorm", 256),
    ("split_rmsnorm", 256),
])
def test_the_reduction_length_of_the_examples(example: str, length: int):
    """split_rmsnorm sums 128 columns per tile over a grid of 2: the inter-tile fold
    counts the grid's tiles."""
    kernel = Kernel.from_text((ROOT / "examples" / f"{example}.mlir").read_text(), example)
    assert reduction_length(kernel) == length
    assert rule(length).startswith("bit-exact" if length == 1 else "|got - ref|")


@pytest.mark.parametrize("name, scalars, length", [
    ("triton-ktir/layernorm_fwd_ktir.mlir", {"N": 8192, "eps": 1e-5, "BLOCK_SIZE": 1024}, 8192),
    ("triton-ktir/matmul_fwd_ktir.mlir",
     {"K": 2048, "BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 512, "BLOCK_SIZE_K": 128}, 2048),
    ("triton-ktir/vector_add_ktir.mlir", {"BLOCK_SIZE": 128}, 1),
])
def test_the_reduction_length_counts_loops_that_carry_partials(name: str, scalars: dict, length: int):
    """layernorm_fwd adds 8 blocks of 1024 columns elementwise, then reduces one block;
    matmul_fwd contracts 16 blocks of 128."""
    path = CORPUS / "ktir-cpu" / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    assert reduction_length(Kernel.from_text(path.read_text(), name), scalars) == length
    assert math.log2(length) == int(math.log2(length))
