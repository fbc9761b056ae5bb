"""A row's f32 maximum, kept across a loop in a scratchpad buffer, subtracted from
every element of the row: the maximum is a 4-byte scalar broadcast over the vector.
Spyre's and toy's load units splat only 2-byte elements and their FIFOs into the SIMD
engine carry no 4-byte scalar, so the ring stop copies the maximum with stride 0 into
a staging row of the scratchpad, which the load unit moves whole
(``scalar-broadcast-legalization``); line4's vector unit splats it itself. On every
test device the result is compared by ``ktc.sim.check`` with the numpy formula
written here and with the reference interpreter."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402
from simulated import agree, run  # noqa: E402

MINUS_ROW_MAX = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @minus_row_max(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %init = tensor.splat %ninf : tensor<4xf32>
  %m = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (tensor<4xf32>) {
    %col = arith.muli %j, %c32 : index
    %xt = ktdp.construct_access_tile %xv[%c0, %col] {access_tile_set = #half, access_tile_order = #id} : memref<4x64xf32> -> !ktdp.access_tile<4x32xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf32>
    %r = linalg.reduce ins(%a : tensor<4x32xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
      (%in: f32, %o: f32) {
        %u = arith.maximumf %in, %o : f32
        linalg.yield %u : f32
      }
    scf.yield %r : tensor<4xf32>
  }
  scf.for %j = %c0 to %c2 step %c1 {
    %col = arith.muli %j, %c32 : index
    %xt = ktdp.construct_access_tile %xv[%c0, %col] {access_tile_set = #half, access_tile_order = #id} : memref<4x64xf32> -> !ktdp.access_tile<4x32xindex>
    %yt = ktdp.construct_access_tile %yv[%c0, %col] {access_tile_set = #half, access_tile_order = #id} : memref<4x64xf32> -> !ktdp.access_tile<4x32xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf32>
    %e = tensor.empty() : tensor<4x32xf32>
    %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %m : tensor<4x32xf32>, tensor<4xf32>) outs(%e : tensor<4x32xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %s = arith.subf %u, %v : f32
      linalg.yield %s : f32
    } -> tensor<4x32xf32>
    ktdp.store %d, %yt : tensor<4x32xf32>, !ktdp.access_tile<4x32xindex>
  }
  return
}
"""
"""y = x - max(x) per row, for 4 rows of 64 f32 read in two halves: the maximum is
carried over the halves, then each half is read again."""


@pytest.mark.parametrize("device", DEVICES)
def test_the_row_maximum_broadcast_matches_numpy(device: str):
    x = np.random.default_rng(0).standard_normal((4, 64)).astype(np.float32)
    inputs = {"x": x, "y": np.zeros_like(x)}
    simulated, reference = run(MINUS_ROW_MAX, device, inputs)
    agree(simulated, reference, {"x": x, "y": x - x.max(axis=1, keepdims=True)},
          {"x": "f32", "y": "f32"}, 64)
