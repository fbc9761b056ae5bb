"""Kernels whose program steps reuse scratchpad space on engines that the steps' own
FIFOs and hand-offs do not order, compiled and simulated, matching a numpy formula
written here and the reference interpreter.

``address-assignment`` gives a step's buffers the bytes of buffers an earlier step is
done with; no engine waits for the others at a step's end, so ``convert-ktdf-to-dfir``
signals from each engine kind that touched the earlier buffer to each other kind that
touches the later one. A SwiGLU MLP block (``ktc.benchmarks.kernels.swiglu_mlp``) on
spyre has three products in one program: the up product's copies of x and Wu take the
scratchpad bytes where the gate product's were while the load unit may still be
streaming those to the matrix unit, and the down product's staging of Wd the bytes of
the gate's and up's results while the SIMD engine's load unit may still read them.
Without the signals its output was wrong (NaN in every element at 64 tokens, hidden 64,
intermediate 128).

The formula rounds as the kernel does: each product accumulated exactly enough to be
rounded to f16 once, silu and the gating product in f16; the shared rule of
``ktc.sim.check`` for the kernel's longest sum (the intermediate size).
"""

from __future__ import annotations

import numpy as np
import pytest
from simulated import agree, run

from ktc.benchmarks.kernels import swiglu_mlp


def _f16(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float16).astype(np.float64)


def swiglu(x: np.ndarray, wg: np.ndarray, wu: np.ndarray, wd: np.ndarray) -> np.ndarray:
    x, wg, wu, wd = (a.astype(np.float64) for a in (x, wg, wu, wd))
    gate, up = _f16(x @ wg), _f16(x @ wu)
    hidden = _f16(_f16(gate / _f16(1 + _f16(np.exp(-gate)))) * up)
    return (hidden @ wd).astype(np.float16)


@pytest.mark.parametrize("device", ["spyre"])
def test_three_products_in_one_program_match_numpy(device: str):
    kernel = swiglu_mlp(tokens=64, hidden=64, intermediate=128, grid=2)
    inputs = kernel.inputs(seed=7)
    simulated, reference = run(kernel.text, device, inputs, "swiglu_mlp.mlir")
    expected = {"out": swiglu(*(inputs[name] for name in ("x", "wg", "wu", "wd")))}
    agree(simulated, reference, expected, {name: "f16" for name in inputs}, length=128)
