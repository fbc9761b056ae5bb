"""The attention of the benchmarks (``ktc.benchmarks.kernels.attention``: each tile
takes its rows of Q, all of K through a transpose and all of V, a softmax between the
two products) at sequences whose rows of P are too long for the matrix unit's FIFO in
one chunk, several rows a tile.

- The output is within ``test_matmul_cores.attention_bound`` of softmax(Q K^T / sqrt(d))
  V in float64 on spyre (rows of 512 f16, 32 a tile), toy (rows of 256, 4 a tile: at
  512 its 64 chunks of 8 need more scalar registers than its programs have) and
  the third chip (rows of 256, 8 a tile, both products on its SIMD engine); the same
  bound rejects the formula on V's rows in reverse order.
- On spyre and toy P V runs on the matrix unit, P staged chunk-major by
  contraction-pipeline and each chunk's row segment computed by the SIMD engine in
  whole vectors (tile-to-simd-width; tiled one element at a time, these sizes ran
  past their cycle budget): the matrix units' issued cycles (the report's ideal term
  times the units) cover the steps of both products of every tile; with P V on the
  SIMD engine they cover only the scores' steps and their fill and drain, short of it.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_matmul import DEVICES
from test_matmul_cores import attention_bound

from ktc.benchmarks.kernels import attention
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.simulator import Simulator

CASES = {"spyre": (512, 64, 16), "toy": (256, 8, 64), "line4": (256, 8, 32)}
"""Sequence, head dimension and grid of ``attention`` per device."""


def _run(device: str) -> tuple[dict, dict, Simulator, object]:
    sequence, head, grid = CASES[device]
    case = attention(sequence, head, grid)
    arrays = case.inputs(seed=3)
    simulator = Simulator(DEVICES[device])
    executable = prepare(compile_kernel(case.text, DEVICES[device], "attention.mlir"), simulator)
    outputs = executable.launch(*arrays.values())
    return arrays, outputs, simulator, executable.report()


@pytest.mark.parametrize("device", sorted(CASES))
def test_attention_matches_numpy(device):
    arrays, outputs, _, _ = _run(device)
    scale = float(np.float16(1 / np.sqrt(CASES[device][1])))
    q, k, v = arrays["q"], arrays["k"], arrays["v"]
    exact, bound = attention_bound(q, k, v, scale)
    error = np.abs(outputs["out"].astype(np.float64) - exact)
    assert np.all(error <= bound), f"worst {np.max(error - bound):.3g} past the bound"
    assert np.any(np.abs(attention_bound(q, k, v[::-1], scale)[0] - exact) > bound)


@pytest.mark.parametrize("device", ["spyre", "toy"])
def test_p_v_runs_on_the_matrix_unit(device):
    sequence, head, grid = CASES[device]
    _, _, simulator, report = _run(device)
    unit, rows = simulator.device.matrix, sequence // grid
    both = grid * 2 * rows * head * sequence  # Q K^T and P V: multiply-accumulates
    peak = simulator.device.roofline.matrix_units * unit.rows * unit.lanes
    assert report.ideal_terms["matrix compute"] == -(-both * unit.issue_cycles // peak)
