"""Launch-time checks of the views a kernel writes (``runtime/executable.py``): a view
whose strides come at launch and do not nest (two coordinates at one address), and
two written views of one array that overlap, are refused at launch naming the
argument, before anything runs; strides that nest and views that do not overlap run
and match numpy formulas written here."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

ROWS, COLS = 16, 32
BOX = f"""#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
"""
TILE = f"memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>"
TENSOR = f"tensor<{ROWS}x{COLS}xf16>, !ktdp.access_tile<{ROWS}x{COLS}xindex>"


def view(name: str, start: str, strides: str) -> str:
    return (f"  %{name}v = ktdp.construct_memory_view %{start}, sizes: [{ROWS}, {COLS}], "
            f"strides: [{strides}] {{coordinate_set = #box, memory_space = "
            f"#ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>\n"
            f"  %{name}t = ktdp.construct_access_tile %{name}v[%c0, %c0] "
            f"{{access_tile_set = #box, access_tile_order = #id}} : {TILE}\n")


SCATTERED = BOX + f"""func.func @scattered_double(%x: index, %y: index, %row: index, %col: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
{view("x", "x", f"{COLS}, 1")}{view("y", "y", "%row, %col")}  %v = ktdp.load %xt : !ktdp.access_tile<{ROWS}x{COLS}xindex> -> tensor<{ROWS}x{COLS}xf16>
  %w = arith.addf %v, %v : tensor<{ROWS}x{COLS}xf16>
  ktdp.store %w, %yt : {TENSOR}
  return
}}
"""
"""y[i * row + j * col] = 2 x[i, j]: %y's strides come at launch."""

TWICE = BOX + f"""func.func @copy_twice(%x: index, %y: index, %off: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %later = arith.addi %y, %off : index
  %whole = ktdp.construct_memory_view %y, sizes: [{2 * ROWS * COLS + 8}], strides: [1]
      {{coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + {2 * ROWS * COLS + 7} >= 0)>,
        memory_space = #ktdp.memory_space<global>}} : memref<{2 * ROWS * COLS + 8}xf16>
{view("x", "x", f"{COLS}, 1")}{view("y", "y", f"{COLS}, 1")}{view("z", "later", f"{COLS}, 1")}  %v = ktdp.load %xt : !ktdp.access_tile<{ROWS}x{COLS}xindex> -> tensor<{ROWS}x{COLS}xf16>
  %w = arith.addf %v, %v : tensor<{ROWS}x{COLS}xf16>
  ktdp.store %v, %yt : {TENSOR}
  ktdp.store %w, %zt : {TENSOR}
  return
}}
"""
"""y[:512] = x, y[off : off + 512] = 2 x (flat): two written views of %y (its view
%whole, not accessed, makes its array 1032 elements)."""

SIZE = ROWS * COLS


def _x() -> np.ndarray:
    return np.random.default_rng(0).standard_normal((ROWS, COLS)).astype(np.float16)


def _launch(text: str, device: str, *args):
    return prepare(compile_kernel(text, device), Simulator(device)).launch(*args)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("row, col", [(1, ROWS), (40, 1)])
def test_written_strides_that_nest_scatter_as_numpy_says(device: str, row: int, col: int):
    x = _x()
    extent = 1 + (ROWS - 1) * row + (COLS - 1) * col
    out = _launch(SCATTERED, device, x, np.zeros(extent, np.float16), row, col)
    i, j = np.meshgrid(np.arange(ROWS), np.arange(COLS), indexing="ij")
    expected = np.zeros(extent, np.float16)
    expected[i * row + j * col] = x * np.float16(2)
    np.testing.assert_array_equal(out["y"], expected)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("row, col", [(1, 1), (2, 1), (0, 1), (COLS, 0)])
def test_written_strides_that_do_not_nest_are_refused_at_launch(device: str, row: int, col: int):
    """Strides [1, 1] put [0, 1] and [1, 0] at one address; [2, 1] and a zero stride
    too."""
    extent = 1 + (ROWS - 1) * row + (COLS - 1) * col
    executable = prepare(compile_kernel(SCATTERED, device), Simulator(device))
    with pytest.raises(KtcError, match=rf"argument %y: the kernel writes a view of it with sizes "
                       rf"\[{ROWS}, {COLS}\] and strides \[{row}, {col}\], which do not nest"):
        executable.launch(_x(), np.zeros(extent, np.float16), row, col)
    assert executable.executed == 0


@pytest.mark.parametrize("device", DEVICES)
def test_two_written_views_apart_write_both(device: str):
    x = _x()
    out = _launch(TWICE, device, x, np.zeros(2 * SIZE + 8, np.float16), SIZE + 8)
    expected = np.zeros(2 * SIZE + 8, np.float16)
    expected[:SIZE], expected[SIZE + 8 :] = x.ravel(), (x * np.float16(2)).ravel()
    np.testing.assert_array_equal(out["y"], expected)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("off", [0, 100, SIZE - 1])
def test_two_written_views_that_overlap_are_refused_at_launch(device: str, off: int):
    executable = prepare(compile_kernel(TWICE, device), Simulator(device))
    with pytest.raises(KtcError, match=rf"argument %y: two views the kernel writes overlap, "
                       rf"elements \[0, {SIZE}\) and \[{off}, {off + SIZE}\) of its array"):
        executable.launch(_x(), np.zeros(2 * SIZE + 8, np.float16), off)
    assert executable.executed == 0
