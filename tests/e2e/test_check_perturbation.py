"""``ktc.sim.check`` cannot pass a wrong answer: a correct simulated output of a row sum
(64 columns, 8 rows a tile, on toy) passes, and the same output with its largest element
changed by 1% fails, for outputs of magnitude 1e-5, 1 and 1e4 in f32, and 1 and 1e4 in
f16 (f16 holds 1e-5 only as a subnormal, with 7 bits: a 1% change there is a change of
two of its smallest steps, within the roundings the rule allows)."""

import numpy as np
import pytest

from ktc.benchmarks.kernels import row_sum
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.check import compare, reduction_length
from ktc.sim.reference import Kernel
from ktc.sim.simulator import Simulator

ROWS, COLS = 16, 64


def _kernel(element: str) -> str:
    return row_sum(ROWS, COLS, 2, 8).text.replace("f32", element)


@pytest.mark.parametrize("element, magnitude", [
    ("f32", 1e-5), ("f32", 1.0), ("f32", 1e4), ("f16", 1.0), ("f16", 1e4),
])
def test_a_one_percent_error_at_one_element_fails_the_check(element: str, magnitude: float):
    text = _kernel(element)
    dtype = np.dtype(np.float16 if element == "f16" else np.float32)
    rng = np.random.default_rng(1)
    x = (rng.uniform(0.5, 1.5, (ROWS, COLS)) * magnitude / COLS).astype(dtype)
    executable = prepare(compile_kernel(text, "toy", "row_sum"), Simulator("toy"))
    actual = executable.launch(x, np.zeros(ROWS, dtype))
    kernel = Kernel.from_text(text, "row_sum")
    expected = kernel.execute({"x": x, "y": np.zeros(ROWS, dtype)}).outputs
    elements, length = {"x": element, "y": element}, reduction_length(kernel)
    assert length == COLS
    assert compare(actual, expected, elements, length) is None
    np.testing.assert_allclose(actual["y"], x.astype(np.float64).sum(axis=1), rtol=1e-2)
    assert 0.5 * magnitude < np.abs(expected["y"]).max() < 1.5 * magnitude
    for index in (int(np.argmax(np.abs(expected["y"]))), 0):
        wrong = {"x": actual["x"], "y": actual["y"].copy()}
        wrong["y"][index] = wrong["y"][index] * dtype.type(1.01)
        mismatch = compare(wrong, expected, elements, length)
        assert mismatch is not None and mismatch.index == (index,)
