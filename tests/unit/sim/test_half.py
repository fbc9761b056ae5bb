"""f16 arithmetic in float32 (``ktc.sim.half``) gives, bit for bit, the f16 rounding of
the float64 result that the simulator's value rule defines, and hands back what it does
not cover (NaN results, other types or shapes) to that rule."""

from __future__ import annotations

import numpy as np
import pytest
from ktc.sim import half

pytestmark = pytest.mark.skipif(not half.OPERATIONS, reason="the compiled core is not built")

ALL = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
FINITE = ALL[np.isfinite(ALL)]


def float64_rule(fn, a, b) -> np.ndarray:
    with np.errstate(all="ignore"):
        return fn(a.astype(np.float64), b.astype(np.float64)).astype(np.float16)


def supported() -> bool:
    return half.binary(np.add, "f16", (FINITE[:8], FINITE[:8])) is not None


@pytest.mark.parametrize("fn", list(half.OPERATIONS))
def test_every_finite_value_against_random_ones(fn):
    """Every finite f16 (subnormals, the largest, both zeros) against random finite ones,
    in one array, so overflow to infinity and rounding into the subnormals both occur."""
    if not supported():
        pytest.skip("the processor lacks the conversion instructions")
    rng = np.random.default_rng(3)
    a = np.tile(FINITE, 8)
    b = rng.choice(FINITE, a.size)
    got = half.binary(fn, "f16", (a, b))
    if got is None:  # a NaN somewhere (0/0): check the lanes that are not
        keep = ~np.isnan(float64_rule(fn, a, b))
        a, b = a[keep], b[keep]
        got = half.binary(fn, "f16", (a, b))
    assert got is not None
    want = float64_rule(fn, a, b)
    assert np.array_equal(got.view(np.uint16), want.view(np.uint16))


def test_a_nan_result_is_left_to_the_float64_rule():
    if not supported():
        pytest.skip("the processor lacks the conversion instructions")
    inf = np.full(20, np.inf, np.float16)
    assert half.binary(np.subtract, "f16", (inf, inf)) is None
    assert half.widen(np.full(3, np.nan, np.float16)) is None


def test_other_types_and_shapes_are_left_to_the_float64_rule():
    x = FINITE[:64]
    assert half.binary(np.add, "f32", (x, x)) is None
    assert half.binary(np.add, "f16", (x.astype(np.float32), x.astype(np.float32))) is None
    assert half.binary(np.add, "f16", (x, x[:32])) is None
    assert half.binary(np.maximum, "f16", (x, x)) is None


def test_widening_is_exact_and_keeps_the_shape():
    if not supported():
        pytest.skip("the processor lacks the conversion instructions")
    rows = np.tile(FINITE, 3).reshape(3, -1)[:, ::2]  # not contiguous
    got = half.widen(rows)
    assert got is not None and got.shape == rows.shape and got.dtype == np.float32
    assert np.array_equal(got, rows.astype(np.float64).astype(np.float32))
