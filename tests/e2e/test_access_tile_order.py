"""Access tiles in a non-identity ``access_tile_order``: a tile's points are visited in
the lexicographic order of ``order(p)``, so a permutation reads (or writes) the tile
with its dimensions permuted (``docs/ktir.md``). Loads and stores through transposed
and 3-D permuted tiles, and a transposed tile of a view with launch-time sizes (masked
past them), run on every test device and are compared exactly with numpy transposes
written here and with the reference interpreter."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402
from simulated import run  # noqa: E402


TRANSPOSED_ADD = """#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#bs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @tr(%x: index, %b: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [64, 32], strides: [32, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [32, 64], strides: [64, 1] {coordinate_set = #bs, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #bs, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #xs, access_tile_order = #tr} : memref<64x32xf16> -> !ktdp.access_tile<32x64xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #bs, access_tile_order = #id} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #bs, access_tile_order = #id} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %c = ktdp.load %bt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %s = arith.addf %a, %c : tensor<32x64xf16>
  ktdp.store %s, %yt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
"""
"""y = x^T + b for a 64x32 f16 x read through a (d1, d0) tile, 32x64 b and y."""

TRANSPOSED_STORE = """#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_store(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x128xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [128, 8], strides: [8, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<128x8xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #xs, access_tile_order = #id} : memref<8x128xf32> -> !ktdp.access_tile<8x128xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #ys, access_tile_order = #tr} : memref<128x8xf32> -> !ktdp.access_tile<8x128xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf32>
  %two = arith.constant dense<2.0> : tensor<8x128xf32>
  %s = arith.mulf %a, %two : tensor<8x128xf32>
  ktdp.store %s, %yt : tensor<8x128xf32>, !ktdp.access_tile<8x128xindex>
  return
}
"""
"""y = (2 x)^T for 8x128 f32 x and 128x8 y, stored through a (d1, d0) tile of y."""

PERMUTED_3D = """#xs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#ys = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#row = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#out = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @permuted_3d(%x: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 64, 8], strides: [512, 8, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<4x64x8xf16>
  %xt = ktdp.construct_access_tile %xv[%t, %c0, %c0] {access_tile_set = #row, access_tile_order = #swap} : memref<4x8x64xf16> -> !ktdp.access_tile<1x64x8xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0, %c0] {access_tile_set = #out, access_tile_order = #id} : memref<4x64x8xf16> -> !ktdp.access_tile<1x64x8xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64x8xindex> -> tensor<1x64x8xf16>
  %b = math.absf %a : tensor<1x64x8xf16>
  ktdp.store %b, %yt : tensor<1x64x8xf16>, !ktdp.access_tile<1x64x8xindex>
  return
}
"""
"""y[b] = |x[b]|^T for 4 batches of 8x64 f16 x, one batch per tile, read through a
(d0, d2, d1) tile."""

MASKED_TRANSPOSE = """#box = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @trd(%x: index, %y: index, %m: index, %k: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [%m, %k], strides: [16, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<?x?xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #tr} : memref<?x?xf32> -> !ktdp.access_tile<16x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #out, access_tile_order = #id} : memref<16x64xf32> -> !ktdp.access_tile<16x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf32>
  ktdp.store %a, %yt : tensor<16x64xf32>, !ktdp.access_tile<16x64xindex>
  return
}
"""
"""y = x^T over the m x k f32 box of x (rows 16 apart), read as a 16x64 tile in the
(d1, d0) order: y[j, i] = x[i, j] for i < m, j < k, 0 elsewhere."""


def check(simulated: dict, reference: dict, expected: dict) -> None:
    for outputs in (simulated, reference):
        for name, want in expected.items():
            np.testing.assert_array_equal(outputs[name], want)


@pytest.mark.parametrize("device", DEVICES)
def test_a_transposed_load(device: str):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 32)).astype(np.float16)
    b = rng.standard_normal((32, 64)).astype(np.float16)
    simulated, reference = run(TRANSPOSED_ADD, device, {"x": x, "b": b, "y": np.zeros_like(b)})
    check(simulated, reference, {"x": x, "b": b, "y": x.T + b})


@pytest.mark.parametrize("device", DEVICES)
def test_a_transposed_store(device: str):
    x = np.random.default_rng(1).standard_normal((8, 128)).astype(np.float32)
    simulated, reference = run(TRANSPOSED_STORE, device, {"x": x, "y": np.zeros((128, 8), np.float32)})
    check(simulated, reference, {"x": x, "y": (x * np.float32(2)).T})


@pytest.mark.parametrize("device", DEVICES)
def test_a_three_dimensional_permutation(device: str):
    x = np.random.default_rng(2).standard_normal((4, 8, 64)).astype(np.float16)
    simulated, reference = run(PERMUTED_3D, device, {"x": x, "y": np.zeros((4, 64, 8), np.float16)})
    check(simulated, reference, {"x": x, "y": np.abs(x).transpose(0, 2, 1)})


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("m, k", [(64, 16), (50, 9), (3, 1)])
def test_a_transposed_tile_masked_past_launch_sizes(device: str, m: int, k: int):
    x = np.random.default_rng(m).standard_normal((m - 1) * 16 + k).astype(np.float32)
    y = np.random.default_rng(k).standard_normal((16, 64)).astype(np.float32)
    expected = np.zeros((16, 64), np.float32)
    for i in range(m):
        expected[:k, i] = x[i * 16 : i * 16 + k]
    if k == 16:
        x = x.reshape(m, k)
    simulated, reference = run(MASKED_TRANSPOSE, device, {"x": x, "y": y, "m": m, "k": k})
    check(simulated, reference, {"x": x, "y": expected})
