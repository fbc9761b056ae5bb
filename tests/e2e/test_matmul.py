"""Contractions compile and simulate to numpy's product on every test device: on the
matrix unit (spyre, toy) and on the SIMD engine of the third chip, which has none.

Tolerances against the float64 product ``C = A B`` of the f16 inputs, per element, in
units of f16's roundoff u = 2^-11: the result is rounded to f16 once (u |C|); the sum
adds rounding errors that scale with the sum of the products' magnitudes S = |A| |B|:
on the matrix unit each product is exact in f32 and the K terms add up in f32
(K 2^-24 S), on the SIMD engine they are summed in a tree whose partials round to f16
((2 + log2 K) u S).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import LINE4, ROOT

from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.simulator import Simulator

U = 2.0**-11
DEVICES = {"spyre": "spyre", "toy": "toy", "line4": str(LINE4)}
MATRIX_UNIT = {"spyre", "toy"}


def run(text: str, device: str, arrays: dict[str, np.ndarray], scalars: dict | None = None):
    """The kernel's outputs on the simulated device."""
    simulator = Simulator(DEVICES[device])
    executable = prepare(compile_kernel(text, DEVICES[device], "matmul.mlir"), simulator)
    names = [name for name in arrays] + list(scalars or {})
    values = {**arrays, **(scalars or {})}
    return executable.launch(*[values[name] for name in names])


def assert_product(got: np.ndarray, a: np.ndarray, b: np.ndarray, device: str,
                   after: np.ndarray | None = None, roundings: int = 1) -> None:
    """``got`` within the tolerance of the module docstring of ``after`` (the product
    with its epilogue, float64), or of ``a @ b``."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    exact = a64 @ b64 if after is None else after
    scale = np.abs(a64) @ np.abs(b64)
    k = a.shape[1]
    summed = k * 2.0**-24 if device in MATRIX_UNIT else (2 + math.log2(max(k, 1))) * U
    allowed = roundings * U * np.abs(exact) + summed * scale + 2.0**-24
    error = np.abs(got.astype(np.float64) - exact)
    worst = np.unravel_index(np.argmax(error - allowed), error.shape)
    assert np.all(error <= allowed), (f"at {list(worst)}: {got[worst]} vs {exact[worst]} "
                                      f"(allowed {allowed[worst]:.3g})")


@pytest.mark.parametrize("device", DEVICES)
def test_example_matches_numpy(device: str):
    text = (ROOT / "examples" / "matmul.mlir").read_text()
    rng = np.random.default_rng(3)
    a = rng.standard_normal((64, 128)).astype(np.float16)
    b = rng.standard_normal((128, 64)).astype(np.float16)
    out = run(text, device, {"a": a, "b": b, "c": np.zeros((64, 64), np.float16)})
    assert_product(out["c"], a, b, device)
