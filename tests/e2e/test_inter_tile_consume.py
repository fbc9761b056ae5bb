"""``ktdp.inter_tile_consume``: each consumer tile receives the partial of its group's
one producer (or the one ``producer_dependency_per_consumer`` names), with no combiner.
A row one tile makes broadcast to every tile, and rows swapped between two tiles in
every iteration of a loop, run on the test devices whose cores hold the grid at once
(toy's two cores refuse the 4-tile broadcast, saying so) and are compared with numpy
formulas written here and, exactly, with the reference interpreter."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, LINE4  # noqa: E402
from simulated import run  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402

BROADCAST = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_set<(t)[g] : (t == 0)>
#every = affine_set<(t)[g] : (t >= 0, -t + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @broadcast_row(%x: index, %b: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %bt = ktdp.construct_access_tile %bv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %bias = ktdp.load %bt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #first -> <(tensor<1x128xf16>), groups = #one> {
  ^bb0(%gid: index):
    %two = arith.constant dense<2.0> : tensor<1x128xf16>
    %d = arith.mulf %bias, %two : tensor<1x128xf16>
    ktdp.yield_partial %d : tensor<1x128xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #every : !ktdp.tile_future<(tensor<1x128xf16>), groups = #one> -> tensor<1x128xf16>
  %a = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %s = arith.addf %a, %r : tensor<1x128xf16>
  ktdp.store %s, %yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  return
}
"""
"""y[t] = x[t] + 2 b[0] for 4 rows of 128 f16: tile 0 makes 2 b[0], every tile consumes it."""

SWAP = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#every = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#one = affine_set<(g) : (g == 0)>
#next = affine_set<(p)[c] : (p - (c + 1) mod 2 == 0)>
func.func @swap_rows(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %base = arith.muli %i, %c2 : index
    %r = arith.addi %base, %t : index
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x64xf32> -> !ktdp.access_tile<1x64xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x64xf32> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #every -> <(tensor<1x64xf32>), groups = #one> {
    ^bb0(%gid: index):
      %e = math.exp %a : tensor<1x64xf32>
      ktdp.yield_partial %e : tensor<1x64xf32>
    }
    %o = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #every, producer_dependency_per_consumer = #next : !ktdp.tile_future<(tensor<1x64xf32>), groups = #one> -> tensor<1x64xf32>
    %s = arith.subf %o, %a : tensor<1x64xf32>
    ktdp.store %s, %yt : tensor<1x64xf32>, !ktdp.access_tile<1x64xindex>
  }
  return
}
"""
"""y[2i + t] = exp(x[2i + 1 - t]) - x[2i + t] for 8 rows of 64 f32 on 2 tiles: in each of
4 iterations each tile consumes the other's exp (producer p = (c + 1) mod 2)."""


def run_exactly(text: str, device: str, inputs: dict) -> tuple[dict, dict]:
    """The outputs of the simulated kernel and of the reference interpreter, which
    must be the same bits."""
    simulated, reference = run(text, device, inputs)
    for name in simulated:
        np.testing.assert_array_equal(simulated[name], reference[name])
    return simulated, reference


@pytest.mark.parametrize("device", ["spyre", str(LINE4)], ids=["spyre", "line4"])
def test_a_row_broadcast_to_every_tile(device: str):
    rng = np.random.default_rng(0)
    x, b = (rng.standard_normal((4, 128)).astype(np.float16) for _ in range(2))
    simulated, _ = run_exactly(BROADCAST, device, {"x": x, "b": b, "y": np.zeros_like(x)})
    np.testing.assert_array_equal(simulated["y"], x + b[0] * np.float16(2))


def test_the_broadcast_needs_its_tiles_at_once():
    with pytest.raises(KtcError, match="grid \\[4\\] has 4 tiles that communicate, but device @toy has 2 cores"):
        compile_kernel(BROADCAST, "toy")


@pytest.mark.parametrize("device", DEVICES)
def test_rows_swapped_between_tiles_in_a_loop(device: str):
    x = np.random.default_rng(1).standard_normal((8, 64)).astype(np.float32)
    simulated, _ = run_exactly(SWAP, device, {"x": x, "y": np.zeros_like(x)})
    other = x.reshape(4, 2, 64)[:, ::-1].reshape(8, 64)
    np.testing.assert_allclose(simulated["y"], np.exp(other.astype(np.float64)) - x, rtol=1e-6, atol=1e-6)
