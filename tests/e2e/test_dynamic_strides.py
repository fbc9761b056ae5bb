"""Memory views whose strides are SSA values known only at launch, compiled and
simulated: the DMA descriptors hold constant strides, so a block that spans a
dimension whose stride comes at launch is copied one piece at a time (an engine loop
over its rows, or its elements when the innermost stride comes at launch), each piece
at an address the engine computes from the stride arguments. A kernel whose view
strides are two scalar arguments reads a row-major, a transposed (strides 1 and 16)
and a padded (row stride 40) layout of the same flat array; each run is compared with
a numpy formula of flat indices written here and with the reference interpreter, on
spyre, toy and line4. The corpus's two dynamic distributed-view copies are in
``test_distributed_views.py``. A launch with a stride that makes the view reach past
the array given is refused by ``ktc run`` naming the argument."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402
from simulated import agree  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.reference import Kernel  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

ROWS, COLS = 16, 32

STRIDED = f"""#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided_double(%x: index, %y: index, %row: index, %col: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [{ROWS}, {COLS}], strides: [%row, %col]
      {{coordinate_set = #box, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1]
      {{coordinate_set = #box, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {{access_tile_set = #box, access_tile_order = #id}}
      : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {{access_tile_set = #box, access_tile_order = #id}}
      : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>
  %v = ktdp.load %xt : !ktdp.access_tile<{ROWS}x{COLS}xindex> -> tensor<{ROWS}x{COLS}xf16>
  %w = arith.addf %v, %v : tensor<{ROWS}x{COLS}xf16>
  ktdp.store %w, %yt : tensor<{ROWS}x{COLS}xf16>, !ktdp.access_tile<{ROWS}x{COLS}xindex>
  return
}}
"""
"""y[i, j] = 2 x[i * row + j * col]: x is the flat array of the view's extent."""

LAYOUTS = {"row-major": (COLS, 1), "transposed": (1, ROWS), "padded rows": (40, 1)}


def _extent(row: int, col: int) -> int:
    return 1 + (ROWS - 1) * row + (COLS - 1) * col


def _run(device: str, row: int, col: int, seed: int = 0):
    """The simulated and reference outputs, and the formula's. The compiled kernel
    takes %x flat (its strides come at launch); the reference, which sees their values,
    takes it in the views' shape when they are row-major."""
    x = np.random.default_rng(seed).standard_normal(_extent(row, col)).astype(np.float16)
    y = np.zeros((ROWS, COLS), np.float16)
    package = compile_kernel(STRIDED, device, "strided_double")
    simulated = prepare(package, Simulator(device)).launch(x, y, row, col)
    row_major = (row, col) == (COLS, 1)
    given = x.reshape(ROWS, COLS) if row_major else x
    reference = Kernel.from_text(STRIDED, "strided_double").execute(
        {"x": given, "y": y, "row": row, "col": col}).outputs
    reference = {"x": reference["x"].reshape(x.shape), "y": reference["y"]}
    i, j = np.meshgrid(np.arange(ROWS), np.arange(COLS), indexing="ij")
    expected = {"x": x, "y": x[i * row + j * col] * np.float16(2)}
    return simulated, reference, expected


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_strides_given_at_launch_read_the_layout_they_name(layout: str, device: str):
    simulated, reference, expected = _run(device, *LAYOUTS[layout])
    agree(simulated, reference, expected, {"x": "f16", "y": "f16"})


def test_the_strided_check_sees_a_transposed_answer():
    """Reading the padded array as if row-major (the strides ignored) fails the check."""
    simulated, _, expected = _run("spyre", *LAYOUTS["padded rows"])
    x = expected["x"]
    wrong = {"x": x, "y": x[: ROWS * COLS].reshape(ROWS, COLS) * np.float16(2)}
    agree(simulated, simulated, expected, {"x": "f16", "y": "f16"})
    with pytest.raises(AssertionError):
        agree(simulated, simulated, wrong, {"x": "f16", "y": "f16"})


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 48), st.integers(1, 3))
def test_generated_strides_match_numpy(row: int, col: int):
    simulated, reference, expected = _run("spyre", row, col, seed=row * 4 + col)
    agree(simulated, reference, expected, {"x": "f16", "y": "f16"})


def test_a_stride_past_the_array_is_refused_at_launch(tmp_path: Path):
    """``ktc run`` with a row stride whose view reaches past the array of %x: exit 1,
    the argument and the extent its strides need named, no traceback."""
    kernel = tmp_path / "strided_double.mlir"
    kernel.write_text(STRIDED)
    np.savez(tmp_path / "in.npz", x=np.zeros(_extent(COLS, 1), np.float16),
             y=np.zeros((ROWS, COLS), np.float16))
    result = subprocess.run(
        [sys.executable, "-m", "ktc", "run", str(kernel), "--arch", "spyre",
         "--inputs", str(tmp_path / "in.npz"), "--arg", "row=40", "--arg", "col=1"],
        capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "argument %x: expected an array of shape" in result.stderr
    assert f"= {_extent(40, 1)},), got ({_extent(COLS, 1)},)" in result.stderr
    assert "Traceback" not in result.stderr
