"""Kernels whose ``linalg.generic`` body computes on its element's position
(``linalg.index``): a banded lower triangle of a 4 x 16 tile (row r keeps the columns
c <= 4r) with the column added to each kept element, the compare of positions read by
a select and the column converted to f16 by ``arith.sitofp``. The positions compile as
constant vectors of the generic's domain (``passes/analysis/positions.py``): on spyre,
whose 64 fp16 lanes hold the whole tile, the kernel matches a numpy formula written
here and the reference interpreter. Toy and line4 have no select instruction and
refuse the kernel naming it; on them the same positions without the select (the row
and the column added to the elements) are refused because their lanes split the
tile, so a position would be counted within a tile."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import LINE4  # noqa: E402
from simulated import agree, run  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.sim.check import compare  # noqa: E402

ROWS, COLS = 4, 16

KERNEL = f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
func.func @band(%x: index, %y: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %xv = ktdp.construct_memory_view %x, sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1] {{coordinate_set = #box, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1] {{coordinate_set = #box, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {{access_tile_set = #box, access_tile_order = #id}} : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {{access_tile_set = #box, access_tile_order = #id}} : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<{ROWS}x{COLS}xindex> -> tensor<{ROWS}x{COLS}xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<{ROWS}x{COLS}xf16>
  %b = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<{ROWS}x{COLS}xf16>) outs(%e : tensor<{ROWS}x{COLS}xf16>) {{
  ^bb0(%v: f16, %o: f16):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r4 = arith.muli %r, %c4 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f16
    %s = arith.addf %v, %cf : f16
BODY
    linalg.yield %m : f16
  }} -> tensor<{ROWS}x{COLS}xf16>
  ktdp.store %b, %yt : tensor<{ROWS}x{COLS}xf16>, !ktdp.access_tile<{ROWS}x{COLS}xindex>
  return
}}
"""

BAND = KERNEL.replace("BODY", """    %keep = arith.cmpi ule, %c, %r4 : index
    %m = arith.select %keep, %s, %zero : f16""")
"""Row r keeps the columns c <= 4r, each plus c; the others are 0."""

RAMP = KERNEL.replace("BODY", """    %ri = arith.index_cast %r4 : index to i32
    %rf = arith.sitofp %ri : i32 to f16
    %m = arith.addf %s, %rf : f16""")
"""Every element plus its column and 4 times its row."""


def _inputs() -> dict:
    x = np.random.default_rng(0).standard_normal((ROWS, COLS)).astype(np.float16)
    return {"x": x, "y": np.zeros((ROWS, COLS), np.float16)}


def banded(x: np.ndarray, width: int = 4) -> np.ndarray:
    """Row r keeps the columns c <= width * r, each plus c, in float64 then f16."""
    rows, cols = np.indices(x.shape)
    return np.where(cols <= width * rows, x.astype(np.float64) + cols, 0).astype(np.float16)


def test_the_band_matches_numpy_on_spyre():
    inputs = _inputs()
    simulated, reference = run(BAND, "spyre", inputs)
    agree(simulated, reference, {**inputs, "y": banded(inputs["x"])}, {"x": "f16", "y": "f16"})


def test_the_comparison_tells_a_wider_band_apart():
    """The check can fail: the band c <= 5r (one more column kept per row) is refused."""
    x = _inputs()["x"]
    assert compare({"y": banded(x, 5)}, {"y": banded(x)}, {"y": "f16"}, 1) is not None


@pytest.mark.parametrize("device", ["toy", str(LINE4)], ids=["toy", "line4"])
def test_devices_without_select_refuse_the_band(device: str):
    with pytest.raises(KtcError, match="'arith.select' needs the instruction select") as caught:
        compile_kernel(BAND, device, "band.mlir")
    assert caught.value.where.startswith("band.mlir:")


@pytest.mark.parametrize("device", ["toy", str(LINE4)], ids=["toy", "line4"])
def test_lanes_that_split_the_tile_refuse_its_positions(device: str):
    with pytest.raises(KtcError, match=r"reads its element's position along loop d\d "
                                       r"\(linalg.index\), which is split into tiles") as caught:
        compile_kernel(RAMP, device, "ramp.mlir")
    assert caught.value.where.startswith("ramp.mlir:")
