"""Reductions whose combiner is a compare and a select: a row's maximum kept by
``arith.cmpf ogt`` + ``arith.select`` in ``linalg.reduce`` and its minimum by ``olt``
(operands swapped) in a ``linalg.generic``, compiled as maxnumf and minnumf
(``normalize-select-combiners``). Rows hold repeated values (ties keep an equal
value, so the result does not depend on the fold order); each run is compared exactly
with numpy's row maximum and minimum and with the reference interpreter, on every test
device."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.reference import Kernel  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

ROW_EXTREMA = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @row_extrema(%x: index, %mx: index, %mn: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %r = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
  %maxv = ktdp.construct_memory_view %mx, sizes: [4], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %minv = ktdp.construct_memory_view %mn, sizes: [4], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
  %maxt = ktdp.construct_access_tile %maxv[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<1xindex>
  %mint = ktdp.construct_access_tile %minv[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<1xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
  %low = arith.constant dense<-65504.0> : tensor<1xf16>
  %m = linalg.reduce ins(%a : tensor<1x256xf16>) outs(%low : tensor<1xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %gt = arith.cmpf ogt, %in, %acc : f16
      %k = arith.select %gt, %in, %acc : f16
      linalg.yield %k : f16
    }
  ktdp.store %m, %maxt : tensor<1xf16>, !ktdp.access_tile<1xindex>
  %high = arith.constant dense<65504.0> : tensor<1xf16>
  %n = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x256xf16>) outs(%high : tensor<1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %lt = arith.cmpf olt, %acc, %in : f16
    %k = arith.select %lt, %acc, %in : f16
    linalg.yield %k : f16
  } -> tensor<1xf16>
  ktdp.store %n, %mint : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}
"""
"""mx[r] = max(x[r]), mn[r] = min(x[r]) for 4 rows of 256 f16, one row per tile."""


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", [0, 1])
def test_row_extrema_by_compare_and_select(device: str, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.integers(-40, 40, (4, 256)).astype(np.float16) / np.float16(8)
    x[seed, ::3] = x[seed].max()
    inputs = {"x": x, "mx": np.zeros(4, np.float16), "mn": np.zeros(4, np.float16)}
    simulated = prepare(compile_kernel(ROW_EXTREMA, device), Simulator(device)).launch(*inputs.values())
    reference = Kernel.from_text(ROW_EXTREMA).execute(dict(inputs)).outputs
    for outputs in (simulated, reference):
        np.testing.assert_array_equal(outputs["mx"], x.max(axis=1))
        np.testing.assert_array_equal(outputs["mn"], x.min(axis=1))
        np.testing.assert_array_equal(outputs["x"], x)
