"""Parallel loops (``lower-parallel-loops``): an ``scf.parallel`` over a 2-D grid of
blocks that stores each block's exponential and reduces the blocks' sum with
``scf.reduce``, and an ``scf.forall`` over blocks, one bound a launch argument, run on
every test device and compared with numpy formulas written here and with the
reference interpreter (``ktc.sim.check``'s rule)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402
from simulated import agree, run  # noqa: E402

PARALLEL = """#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bt = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @blocks(%x: index, %y: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %xv = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x128xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x128xf32>
  %sv = ktdp.construct_memory_view %s, sizes: [2, 64], strides: [64, 1] {coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<2x64xf32>
  %init = tensor.splat %zero : tensor<2x64xf32>
  %total = scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c2, %c64) init (%init) -> tensor<2x64xf32> {
    %xt = ktdp.construct_access_tile %xv[%i, %j] {access_tile_set = #bt, access_tile_order = #id} : memref<8x128xf32> -> !ktdp.access_tile<2x64xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %j] {access_tile_set = #bt, access_tile_order = #id} : memref<8x128xf32> -> !ktdp.access_tile<2x64xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf32>
    %e = math.exp %a : tensor<2x64xf32>
    ktdp.store %e, %yt : tensor<2x64xf32>, !ktdp.access_tile<2x64xindex>
    scf.reduce(%a : tensor<2x64xf32>) {
    ^bb0(%lhs: tensor<2x64xf32>, %rhs: tensor<2x64xf32>):
      %sum = arith.addf %lhs, %rhs : tensor<2x64xf32>
      scf.reduce.return %sum : tensor<2x64xf32>
    }
  }
  %st = ktdp.construct_access_tile %sv[%c0, %c0] {access_tile_set = #bt, access_tile_order = #id} : memref<2x64xf32> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %total, %st : tensor<2x64xf32>, !ktdp.access_tile<2x64xindex>
  return
}
"""
"""y = exp(x) for 8x128 f32 x, by 2x64 blocks of an scf.parallel; s = the sum of x's
eight 2x64 blocks, reduced by its scf.reduce."""

FORALL = """#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bt = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @forall(%x: index, %y: index, %n: index) {
  %xv = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x128xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x128xf32>
  scf.forall (%b, %j) in (%n, 2) {
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %i = arith.muli %b, %c2 : index
    %k = arith.muli %j, %c64 : index
    %xt = ktdp.construct_access_tile %xv[%i, %k] {access_tile_set = #bt, access_tile_order = #id} : memref<8x128xf32> -> !ktdp.access_tile<2x64xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %k] {access_tile_set = #bt, access_tile_order = #id} : memref<8x128xf32> -> !ktdp.access_tile<2x64xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf32>
    %e = math.sqrt %a : tensor<2x64xf32>
    ktdp.store %e, %yt : tensor<2x64xf32>, !ktdp.access_tile<2x64xindex>
  }
  return
}
"""
"""y[:2n] = sqrt(x[:2n]) for 8x128 f32 x, by 2x64 blocks of an scf.forall over n block
rows (a launch argument) and 2 block columns; the rest of y as it was."""


def _check(text: str, device: str, inputs: dict, expected: dict, length: int = 1) -> None:
    simulated, reference = run(text, device, inputs)
    arrays = {k: v for k, v in inputs.items() if isinstance(v, np.ndarray)}
    expected = {**arrays, **expected}
    agree(simulated, reference, expected, dict.fromkeys(expected, "f32"), length)


@pytest.mark.parametrize("device", DEVICES)
def test_a_parallel_loop_with_a_reduction(device: str):
    x = np.random.default_rng(0).standard_normal((8, 128)).astype(np.float32)
    blocks = x.astype(np.float64).reshape(4, 2, 2, 64).transpose(0, 2, 1, 3).reshape(8, 2, 64)
    expected = {"y": np.exp(x.astype(np.float64)).astype(np.float32),
                "s": blocks.sum(axis=0).astype(np.float32)}
    inputs = {"x": x, "y": np.zeros_like(x), "s": np.zeros((2, 64), np.float32)}
    _check(PARALLEL, device, inputs, expected, length=8)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [4, 3])
def test_a_forall_loop(device: str, n: int):
    x = np.abs(np.random.default_rng(n).standard_normal((8, 128))).astype(np.float32)
    y = np.random.default_rng(n + 1).standard_normal((8, 128)).astype(np.float32)
    expected = y.copy()
    expected[: 2 * n] = np.sqrt(x[: 2 * n].astype(np.float64))
    _check(FORALL, device, {"x": x, "y": y, "n": n}, {"y": expected})
