"""Rows walked in three loops read once from device memory (``reuse-loaded-tiles``).

A layer norm of the corpus's shape (a sum for the mean, a sum of squares for the
variance, then the normalization, each loop over the row's column blocks loading X)
runs on spyre, toy and line4 and matches a numpy formula written here (``ktc.sim.check``'s
rule); the run's device-memory reads are X's bytes once, where the three loops loaded
it three times. A kernel of the same shape whose first loop stores each block back into
X (doubled) still matches its formula and reads X three times: the store forbids
keeping the blocks. The corpus's ``layernorm_fwd`` (N = 2048 of its 8192 columns in
1024-column blocks, its loops ending at a launch argument) matches the formula on spyre
and line4 and reads X, W and B once each; toy takes a CPU minute for it (its 8 lanes),
and ``tests/e2e/test_simulate.py`` already checks it there against the reference."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import CORPUS, DEVICES, LINE4  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.check import compare  # noqa: E402
from ktc.sim.reference import Kernel  # noqa: E402
from ktc.sim.reference import random_inputs as reference_inputs  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

ROWS, COLS, BLOCK, GRID = 8, 256, 64, 2
EPS = 1e-5
LAYERNORM_FWD = CORPUS / "ktir-cpu" / "triton-ktir" / "layernorm_fwd_ktir.mlir"


def _tile(name: str, view: str, at: str, shape: str) -> str:
    return (f"%{name} = ktdp.construct_access_tile %{view}[{at}] {{access_tile_set = #block, "
            f"access_tile_order = #id2}} : memref<{ROWS}x{COLS}xf16> -> "
            f"!ktdp.access_tile<{shape}xindex>\n")


def three_loops(in_place: bool) -> str:
    """Per row: mean of X, variance about it, then ``Y = (X - mean) / sqrt(var + eps)``,
    each a loop over ``BLOCK``-column blocks loading X; ``in_place``: the first loop also
    stores each block doubled back into X, which the later loops then read."""
    block = f"1x{BLOCK}"
    tensor = f"tensor<{block}xf16>"
    load_x = _tile("x_tile", "x_view", "%row, %col", block) + (
        f"        %x = ktdp.load %x_tile : !ktdp.access_tile<{block}xindex> -> {tensor}\n")
    write_back = (f"        %twice = arith.addf %x, %x : {tensor}\n"
                  f"        ktdp.store %twice, %x_tile : {tensor}, !ktdp.access_tile<{block}xindex>\n"
                  ) if in_place else ""
    view = (f"sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1] {{coordinate_set = #rows, "
            f"memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>")
    def reduce(value: str) -> str:
        return (f"linalg.reduce {{ arith.addf }} ins(%{value} : {tensor}) outs(%init : "
                "tensor<1xf16>) dimensions = [1]")

    return f"""
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {BLOCK - 1} >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {{
  func.func @three_loops(%X: index, %Y: index) attributes {{grid = [{GRID}]}} {{
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %cb = arith.constant {BLOCK} : index
    %cc = arith.constant {COLS} : index
    %cr = arith.constant {ROWS} : index
    %cg = arith.constant {GRID} : index
    %zero = arith.constant 0.0 : f16
    %one = arith.constant 1.0 : f16
    %n = arith.constant {float(COLS)} : f16
    %eps = arith.constant {EPS:e} : f16
    %zero_block = arith.constant dense<0.0> : {tensor}
    %x_view = ktdp.construct_memory_view %X, {view}
    %y_view = ktdp.construct_memory_view %Y, {view}
    scf.for %row = %id to %cr step %cg {{
      %sums = scf.for %col = %c0 to %cc step %cb iter_args(%acc = %zero_block) -> ({tensor}) {{
        {load_x}{write_back}        %next = arith.addf %acc, %x : {tensor}
        scf.yield %next : {tensor}
      }}
      %init = tensor.splat %zero : tensor<1xf16>
      %n_t = tensor.splat %n : tensor<1xf16>
      %sum = {reduce("sums")}
      %mean = arith.divf %sum, %n_t : tensor<1xf16>
      %mean_s = tensor.extract %mean[%c0] : tensor<1xf16>
      %mean_b = tensor.splat %mean_s : {tensor}
      %squares = scf.for %col = %c0 to %cc step %cb iter_args(%acc = %zero_block) -> ({tensor}) {{
        {load_x}        %d = arith.subf %x, %mean_b : {tensor}
        %d2 = arith.mulf %d, %d : {tensor}
        %next = arith.addf %acc, %d2 : {tensor}
        scf.yield %next : {tensor}
      }}
      %sq = {reduce("squares")}
      %var = arith.divf %sq, %n_t : tensor<1xf16>
      %eps_t = tensor.splat %eps : tensor<1xf16>
      %shifted = arith.addf %var, %eps_t : tensor<1xf16>
      %std = math.sqrt %shifted : tensor<1xf16>
      %one_t = tensor.splat %one : tensor<1xf16>
      %rstd = arith.divf %one_t, %std : tensor<1xf16>
      %rstd_s = tensor.extract %rstd[%c0] : tensor<1xf16>
      %rstd_b = tensor.splat %rstd_s : {tensor}
      scf.for %col = %c0 to %cc step %cb {{
        {load_x}        %d = arith.subf %x, %mean_b : {tensor}
        %y = arith.mulf %d, %rstd_b : {tensor}
        {_tile("y_tile", "y_view", "%row, %col", block)}        ktdp.store %y, %y_tile : {tensor}, !ktdp.access_tile<{block}xindex>
      }}
    }}
    return
  }}
}}
"""


def normalized(x: np.ndarray, w: np.ndarray | None = None, b: np.ndarray | None = None,
               eps: float = EPS, summed: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x - mean) / sqrt(var + eps) * w + b`` per row in float64 (the mean that of
    ``summed``, x by default; the variance about it), with the rows' mean and 1/std."""
    wide = x.astype(np.float64)
    mean = (wide if summed is None else summed.astype(np.float64)).mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(((wide - mean) ** 2).mean(axis=1, keepdims=True) + eps)
    y = (wide - mean) * rstd
    if w is not None:
        y = y * w.astype(np.float64) + b.astype(np.float64)
    return y.astype(np.float16), mean[:, 0].astype(np.float16), rstd[:, 0].astype(np.float16)


def simulate(text: str, name: str, device: str, args: list) -> tuple[dict, int]:
    """The outputs of the kernel on the simulator and the bytes it read from device
    memory."""
    simulator = Simulator(device)
    outputs = prepare(compile_kernel(text, device, name), simulator).launch(*args)
    return outputs, simulator.report().read_bytes


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("in_place", [False, True], ids=["kept", "stored-between"])
def test_three_loops_match_numpy(device: str, in_place: bool):
    x = np.random.default_rng(3).standard_normal((ROWS, COLS)).astype(np.float16)
    outputs, read = simulate(three_loops(in_place), "three_loops.mlir", device,
                             [x.copy(), np.zeros_like(x)])
    source = x + x if in_place else x
    expected = {"X": source, "Y": normalized(source, summed=x)[0]}
    assert compare(outputs, expected, {"X": "f16", "Y": "f16"}, COLS) is None
    assert read == (3 if in_place else 1) * x.nbytes


def test_check_fails_on_a_perturbed_row():
    """The comparison the test above makes fails when one element of Y is off."""
    x = np.random.default_rng(3).standard_normal((ROWS, COLS)).astype(np.float16)
    y = normalized(x)[0]
    wrong = y.copy()
    wrong[1, 7] += np.float16(0.25)
    assert compare({"Y": wrong}, {"Y": y}, {"Y": "f16"}, COLS) is not None


@pytest.mark.parametrize("device", ["spyre", str(LINE4)], ids=["spyre", "line4"])
def test_corpus_layernorm_fwd_reads_x_once(device: str):
    if not LAYERNORM_FWD.exists():
        pytest.skip(f"KTIR corpus not found at {LAYERNORM_FWD}")
    text = LAYERNORM_FWD.read_text()
    kernel = Kernel.from_text(text, "layernorm_fwd")
    scalars = {"N": 2048, "eps": EPS, "BLOCK_SIZE": 1024}
    arrays = reference_inputs(kernel, scalars, {}, seed=7)
    args = [arrays[p.name].copy() if p.pointer else scalars[p.name] for p in kernel.parameters]
    outputs, read = simulate(text, "layernorm_fwd", device, args)
    n = scalars["N"]
    y, mean, rstd = normalized(arrays["X"][:, :n], arrays["W"][:, :n], arrays["B"][:, :n])
    expected_y = arrays["Y"].copy()
    expected_y[:, :n] = y
    expected = {"X": arrays["X"], "W": arrays["W"], "B": arrays["B"], "Y": expected_y,
                "Mean": mean, "Rstd": rstd}
    elements = dict.fromkeys(expected, "f16")
    assert compare({k: outputs[k] for k in expected}, expected, elements, n) is None
    assert read == 3 * arrays["X"][:, :n].nbytes
