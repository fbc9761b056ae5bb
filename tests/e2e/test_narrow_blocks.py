"""Blocks of several rows narrower than the SIMD width (spyre's and line4's 64 f16
lanes over rows of 32): with a row vector broadcast over the rows, with row sums, and
split over two tiles whose partial sums ``ktdp.inter_tile_reduce`` adds. Each kernel
compiles, runs on the simulator and matches the reference interpreter and numpy by
``ktc.sim.check``'s rule."""

import numpy as np
import pytest

from conftest import LINE4, ROOT
from test_simulate import assert_matches, assert_matches_numpy, simulate
from ktc.sim.reference import Kernel, random_inputs

INPUTS = ROOT / "tests" / "e2e" / "inputs"
KERNELS = ["narrow_rows_vector", "narrow_rows_sum", "narrow_rows_split"]


def _row_sums(arrays: dict) -> np.ndarray:
    """y[r] = sum_c (v[c] - x[r, c]), or sum_c -x[r, c] without v, in float64."""
    x = arrays["x"].astype(np.float64).reshape(2, -1)
    v = arrays["v"].astype(np.float64) if "v" in arrays else np.zeros(x.shape[1])
    return (v - x).sum(axis=1)


@pytest.mark.parametrize("device", ["spyre", str(LINE4)], ids=["spyre", "line4"])
@pytest.mark.parametrize("name", KERNELS)
def test_narrow_block_matches_reference(name, device):
    text = (INPUTS / f"{name}.mlir").read_text()
    arrays = random_inputs(Kernel.from_text(text, name), {}, {}, seed=7)
    actual, expected, _ = simulate(text, name, device, arrays, {})
    assert_matches(actual, expected, text, {})
    numpy = _row_sums(arrays).astype(actual["y"].dtype)
    assert_matches_numpy({"y": actual["y"]}, {"y": numpy}, text, {})
