"""Elements of tensors computed in the compute stage used as scalars: a row's sum taken
with ``tensor.extract`` and divided into its mean feeding the row's centring and
normalization, a row's maximum and sum feeding its softmax, and a maximum computed
before a loop scaling the rows the loop loads. Each runs on every test device and is
compared by ``ktc.sim.check`` with a numpy formula written here and with the reference
interpreter."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402
from simulated import agree, run  # noqa: E402


CENTER = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @center(%x: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c2 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  %n = arith.constant 256.0 : f32
  scf.for %i = %c0 to %c2 step %c1 {
    %r = arith.addi %first, %i : index
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x256xf32> -> !ktdp.access_tile<1x256xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x256xf32> -> !ktdp.access_tile<1x256xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf32>
    %zero = arith.constant dense<0.0> : tensor<1xf32>
    %s = linalg.reduce ins(%a : tensor<1x256xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %u = arith.addf %in, %acc : f32
        linalg.yield %u : f32
      }
    %sum = tensor.extract %s[%c0] : tensor<1xf32>
    %mean = arith.divf %sum, %n : f32
    %m = tensor.splat %mean : tensor<1x256xf32>
    %d = arith.subf %a, %m : tensor<1x256xf32>
    ktdp.store %d, %yt : tensor<1x256xf32>, !ktdp.access_tile<1x256xindex>
  }
  return
}
"""
"""y[r] = x[r] - sum(x[r]) / 256 for 8 rows of 256 f32, two rows per tile of 4."""

NORMALIZE = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @normalize(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c4 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x256xf32>
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.addi %first, %i : index
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x256xf32> -> !ktdp.access_tile<1x256xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x256xf32> -> !ktdp.access_tile<1x256xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf32>
    %zero = arith.constant dense<0.0> : tensor<1xf32>
    %s = linalg.reduce { arith.addf } ins(%a : tensor<1x256xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
    %sum = tensor.extract %s[%c0] : tensor<1xf32>
    %mean = arith.divf %sum, %n : f32
    %e = tensor.empty() : tensor<1x256xf32>
    %xm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<1x256xf32>) outs(%e : tensor<1x256xf32>) {
    ^bb0(%v: f32, %o: f32):
      %d = arith.subf %v, %mean : f32
      linalg.yield %d : f32
    } -> tensor<1x256xf32>
    %sq = arith.mulf %xm, %xm : tensor<1x256xf32>
    %ss = linalg.reduce { arith.addf } ins(%sq : tensor<1x256xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
    %ssum = tensor.extract %ss[%c0] : tensor<1xf32>
    %var = arith.divf %ssum, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %scale = tensor.splat %rs : tensor<1x256xf32>
    %out = arith.mulf %xm, %scale : tensor<1x256xf32>
    ktdp.store %out, %yt : tensor<1x256xf32>, !ktdp.access_tile<1x256xindex>
  }
  return
}
"""
"""y[r] = (x[r] - m) / sqrt(mean((x[r] - m)^2) + 1e-5), m = mean(x[r]), for 8 rows of
256 f32: the mean feeds a generic by capture, the variance a splat."""

SOFTMAX = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax(%x: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %r = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %low = arith.constant dense<-65504.0> : tensor<1xf16>
  %m = linalg.reduce { arith.maximumf } ins(%a : tensor<1x128xf16>) outs(%low : tensor<1xf16>) dimensions = [1]
  %max = tensor.extract %m[%c0] : tensor<1xf16>
  %e = tensor.empty() : tensor<1x128xf16>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x128xf16>) outs(%e : tensor<1x128xf16>) {
  ^bb0(%v: f16, %o: f16):
    %d = arith.subf %v, %max : f16
    %x1 = math.exp %d : f16
    linalg.yield %x1 : f16
  } -> tensor<1x128xf16>
  %zero = arith.constant dense<0.0> : tensor<1xf16>
  %s = linalg.reduce { arith.addf } ins(%ex : tensor<1x128xf16>) outs(%zero : tensor<1xf16>) dimensions = [1]
  %sum = tensor.extract %s[%c0] : tensor<1xf16>
  %sums = tensor.splat %sum : tensor<1x128xf16>
  %out = arith.divf %ex, %sums : tensor<1x128xf16>
  ktdp.store %out, %yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  return
}
"""
"""y[r] = exp(x[r] - max(x[r])) / sum(exp(x[r] - max(x[r]))) for 4 rows of 128 f16."""

SCALE_BY_MAX = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_by_max(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %first = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %a = ktdp.load %first : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %low = arith.constant dense<-65504.0> : tensor<1xf16>
  %m = linalg.reduce { arith.maximumf } ins(%a : tensor<1x128xf16>) outs(%low : tensor<1xf16>) dimensions = [1]
  %max = tensor.extract %m[%c0] : tensor<1xf16>
  %two = arith.constant 2.0 : f16
  %scale = arith.mulf %max, %two : f16
  scf.for %i = %c0 to %c4 step %c1 {
    %xt = ktdp.construct_access_tile %xv[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
    %b = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %s = tensor.splat %scale : tensor<1x128xf16>
    %r = arith.mulf %b, %s : tensor<1x128xf16>
    ktdp.store %r, %yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  }
  return
}
"""
"""y[r] = x[r] * (2 * max(x[0])) for 4 rows of 128 f16: the scalar is made before the
loop, in another phase than the compute using it."""


def check(simulated: dict, reference: dict, expected: dict, element: str, length: int) -> None:
    agree(simulated, reference, expected, dict.fromkeys(expected, element), length)


def rows(shape, dtype, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(0.5, 1.5, shape).astype(dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_a_row_mean_feeds_its_centring(device: str):
    x = rows((8, 256), np.float32, 1)
    simulated, reference = run(CENTER, device, {"x": x, "y": np.zeros_like(x)})
    mean = x.astype(np.float64).mean(axis=1, keepdims=True)
    check(simulated, reference, {"x": x, "y": (x - mean).astype(np.float32)}, "f32", 256)


@pytest.mark.parametrize("device", DEVICES)
def test_a_row_mean_and_variance_feed_its_normalization(device: str):
    x = rows((8, 256), np.float32, 2) * np.arange(1, 9, dtype=np.float32)[:, None]
    simulated, reference = run(NORMALIZE, device, {"x": x, "y": np.zeros_like(x)})
    wide = x.astype(np.float64)
    centred = wide - wide.mean(axis=1, keepdims=True)
    expected = centred / np.sqrt((centred ** 2).mean(axis=1, keepdims=True) + 1e-5)
    check(simulated, reference, {"x": x, "y": expected.astype(np.float32)}, "f32", 256)


@pytest.mark.parametrize("device", DEVICES)
def test_a_row_maximum_and_sum_feed_its_softmax(device: str):
    x = (rows((4, 128), np.float32, 3) * 4).astype(np.float16)
    simulated, reference = run(SOFTMAX, device, {"x": x, "y": np.zeros_like(x)})
    wide = np.exp(x.astype(np.float64) - x.astype(np.float64).max(axis=1, keepdims=True))
    expected = (wide / wide.sum(axis=1, keepdims=True)).astype(np.float16)
    check(simulated, reference, {"x": x, "y": expected}, "f16", 128)


@pytest.mark.parametrize("device", DEVICES)
def test_a_scalar_made_before_a_loop_scales_its_rows(device: str):
    x = rows((4, 128), np.float16, 4)
    simulated, reference = run(SCALE_BY_MAX, device, {"x": x, "y": np.zeros_like(x)})
    expected = x * (x[0].max() * np.float16(2))
    check(simulated, reference, {"x": x, "y": expected}, "f16", 128)
