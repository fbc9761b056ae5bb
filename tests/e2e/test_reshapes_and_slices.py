"""Reshapes and slices of tensors (``fold-reshapes-and-slices``): a collapse of a loaded
tile, an expand before a store, a reshape to rank 0 read by a broadcast and by tensor.extract, a reshape
moved past elementwise compute, a reshape in a loop, static and loop-indexed slices,
a ``tensor.reshape`` and a ``tensor.cast``, a collapse of an indirect (paged) tile, a collapse of a loaded tile and an expand before a store that no strides describe (copied through the scratchpad, also past the views' end), slices of a broadcasting and of a reducing generic, a rank-reducing slice and an ``insert_slice`` that is stored (the corpus kernel that
slices a sum is in ``test_fixed_addresses.py``). Each runs on every test device and is compared with a numpy formula
written here and with the reference interpreter (``ktc.sim.check``'s rule)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES  # noqa: E402
from simulated import agree, run  # noqa: E402

COLLAPSED_LOAD = """#xs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#xt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#ys = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#yt = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id1 = affine_map<(d0) -> (d0)>
func.func @collapsed_load(%x: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2048], strides: [1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<2048xf16>
  %xa = ktdp.construct_access_tile %xv[%t, %c0, %c0] {access_tile_set = #xt, access_tile_order = #id3} : memref<4x8x64xf16> -> !ktdp.access_tile<1x8x64xindex>
  %ya = ktdp.construct_access_tile %yv[%t * 512] {access_tile_set = #yt, access_tile_order = #id1} : memref<2048xf16> -> !ktdp.access_tile<512xindex>
  %a = ktdp.load %xa : !ktdp.access_tile<1x8x64xindex> -> tensor<1x8x64xf16>
  %b = tensor.collapse_shape %a [[0, 1, 2]] : tensor<1x8x64xf16> into tensor<512xf16>
  %c = math.exp %b : tensor<512xf16>
  ktdp.store %c, %ya : tensor<512xf16>, !ktdp.access_tile<512xindex>
  return
}
"""
"""y[t*512 : (t+1)*512] = exp(x[t]) flattened, for 4 tiles of 8x64 f16."""

EXPANDED_STORE = """#fs = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#ms = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @expanded_store(%x: index, %b: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [512], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<512xf32>
  %bv = ktdp.construct_memory_view %b, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [512], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<512xf32>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<512xf32> -> !ktdp.access_tile<512xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<512xf32> -> !ktdp.access_tile<512xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<512xindex> -> tensor<512xf32>
  %a2 = tensor.expand_shape %a [[0, 1]] output_shape [8, 64] : tensor<512xf32> into tensor<8x64xf32>
  %bb = ktdp.load %bt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %p = arith.mulf %a2, %bb : tensor<8x64xf32>
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<8x64xf32> into tensor<512xf32>
  ktdp.store %flat, %yt : tensor<512xf32>, !ktdp.access_tile<512xindex>
  return
}
"""
"""y = x * b.flatten() for 512 f32 x, y and 8x64 b: x expanded after its load, the
product collapsed before its store."""

RANK_ZERO = """#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scalar_broadcast(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 1], strides: [1, 1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1x1xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #one, access_tile_order = #id} : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #ys, access_tile_order = #id} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
  %s = tensor.collapse_shape %a [] : tensor<1x1xf16> into tensor<f16>
  %e = tensor.empty() : tensor<4x64xf16>
  %b = linalg.broadcast ins(%s : tensor<f16>) outs(%e : tensor<4x64xf16>) dimensions = [0, 1]
  ktdp.store %b, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
"""
"""y = x[0, 0] everywhere in 4x64 f16 y: the 1x1 tile collapsed to rank 0 and
broadcast (anchor's scalar_broadcast)."""

RANK_ZERO_EXTRACT = """#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#ys = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @r0x(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 1], strides: [1, 1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1x1xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #one, access_tile_order = #id} : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #ys, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
  %s = tensor.collapse_shape %a [] : tensor<1x1xf16> into tensor<f16>
  %v = tensor.extract %s[] : tensor<f16>
  %b = tensor.splat %v : tensor<64xf16>
  %c = arith.addf %b, %b : tensor<64xf16>
  ktdp.store %c, %yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
"""
"""y = 2 x[0, 0] everywhere in 64 f16 y: the 1x1 tile collapsed to rank 0, its element
taken by tensor.extract and splat."""

BETWEEN_COMPUTE = """#as = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#fs = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#rs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#os = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @between(%a: index, %b: index, %y: index, %r: index, %s: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %av = ktdp.construct_memory_view %a, sizes: [2, 64], strides: [64, 1] {coordinate_set = #as, memory_space = #ktdp.memory_space<global>} : memref<2x64xf32>
  %bv = ktdp.construct_memory_view %b, sizes: [128], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [128], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
  %rv = ktdp.construct_memory_view %r, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %sv = ktdp.construct_memory_view %s, sizes: [2, 4], strides: [4, 1] {coordinate_set = #os, memory_space = #ktdp.memory_space<global>} : memref<2x4xf32>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #as, access_tile_order = #id2} : memref<2x64xf32> -> !ktdp.access_tile<2x64xindex>
  %bt = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<128xf32> -> !ktdp.access_tile<128xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<128xf32> -> !ktdp.access_tile<128xindex>
  %rt = ktdp.construct_access_tile %rv[%c0, %c0] {access_tile_set = #rs, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %st = ktdp.construct_access_tile %sv[%c0, %c0] {access_tile_set = #os, access_tile_order = #id2} : memref<2x4xf32> -> !ktdp.access_tile<2x4xindex>
  %x = ktdp.load %at : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf32>
  %e = math.exp %x : tensor<2x64xf32>
  %two = arith.constant dense<2.0> : tensor<2x64xf32>
  %m = arith.mulf %e, %two : tensor<2x64xf32>
  %flat = tensor.collapse_shape %m [[0, 1]] : tensor<2x64xf32> into tensor<128xf32>
  %bb = ktdp.load %bt : !ktdp.access_tile<128xindex> -> tensor<128xf32>
  %sum = arith.addf %flat, %bb : tensor<128xf32>
  ktdp.store %sum, %yt : tensor<128xf32>, !ktdp.access_tile<128xindex>
  %rows = ktdp.load %rt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %init = tensor.splat %zero : tensor<8xf32>
  %total = linalg.reduce ins(%rows : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%p: f32, %q: f32) {
      %add = arith.addf %p, %q : f32
      linalg.yield %add : f32
    }
  %grid = tensor.expand_shape %total [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  ktdp.store %grid, %st : tensor<2x4xf32>, !ktdp.access_tile<2x4xindex>
  return
}
"""
"""y = (2 exp(a)).flatten() + b for 2x64 f32 a, 128 b (the collapse moved past the exp
and the product to a's load); s = the row sums of 8x64 r expanded to 2x4 (the expand of
a reduction folded into the store)."""

LOOPED = """#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ys = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#yt = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @looped(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [512], strides: [1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<512xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %all = ktdp.load %xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %rt = ktdp.construct_access_tile %xv[%i, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %r = ktdp.load %rt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %flat = tensor.collapse_shape %r [[0, 1]] : tensor<1x64xf16> into tensor<64xf16>
    %first = tensor.extract_slice %all[0, 0] [1, 64] [1, 1] : tensor<8x64xf16> to tensor<64xf16>
    %mine = tensor.extract_slice %all[%i, 0] [1, 64] [1, 1] : tensor<8x64xf16> to tensor<1x64xf16>
    %mflat = tensor.collapse_shape %mine [[0, 1]] : tensor<1x64xf16> into tensor<64xf16>
    %s = arith.addf %flat, %first : tensor<64xf16>
    %d = arith.mulf %s, %mflat : tensor<64xf16>
    %yt2 = ktdp.construct_access_tile %yv[%i * 64] {access_tile_set = #yt, access_tile_order = #id1} : memref<512xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %d, %yt2 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  return
}
"""
"""y[64i : 64i+64] = (x[i] + x[0]) * x[i] for 8x64 f16 x, in a loop over i: row i's
tile collapsed, a rank-reducing static slice and a slice at the loop index of the whole
loaded x."""

INSERTED = """#ms = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @inserted(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %part = tensor.extract_slice %a[2, 16] [4, 32] [1, 1] : tensor<8x64xf32> to tensor<4x32xf32>
  %e = math.exp %part : tensor<4x32xf32>
  %neg = arith.negf %a : tensor<8x64xf32>
  %whole = tensor.insert_slice %e into %neg[2, 16] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<8x64xf32>
  ktdp.store %whole, %yt : tensor<8x64xf32>, !ktdp.access_tile<8x64xindex>
  return
}
"""
"""y = -x but y[2:6, 16:48] = exp(x[2:6, 16:48]) for 8x64 f32 x: an insert_slice of a
slice's exponential into the negation, stored."""


RESHAPED = """#fs = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#ms = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reshaped(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [512], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<512xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<512xf32> -> !ktdp.access_tile<512xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %shape = arith.constant dense<[16, 32]> : tensor<2xindex>
  %b = tensor.reshape %a(%shape) : (tensor<8x64xf32>, tensor<2xindex>) -> tensor<16x32xf32>
  %c = tensor.cast %b : tensor<16x32xf32> to tensor<16x32xf32>
  %d = math.sqrt %c : tensor<16x32xf32>
  %flat = tensor.collapse_shape %d [[0, 1]] : tensor<16x32xf32> into tensor<512xf32>
  ktdp.store %flat, %yt : tensor<512xf32>, !ktdp.access_tile<512xindex>
  return
}
"""
"""y = sqrt(x).flatten() for 8x64 f32 x: a tensor.reshape to 16x32 by a constant shape
and a tensor.cast to its own type moved to the load, the collapse to the store."""


INDIRECT = """#cache = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#space = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#os = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ot = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @paged_rows(%cache: index, %table: index, %y: index, %head: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %cv = ktdp.construct_memory_view %cache, sizes: [8, 16, 4, 64], strides: [4096, 256, 64, 1] {coordinate_set = #cache, memory_space = #ktdp.memory_space<global>} : memref<8x16x4x64xf16>
  %tv = ktdp.construct_memory_view %table, sizes: [1, 4], strides: [4, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<1x4xi32>
  %yv = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #os, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %j = %c0 to %c4 step %c1 {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3)
        %cv[ind(%tv[%c0, %j + %d0]), (%d1), (%head + %d2), (%d3)] {
      variables_space_set = #space, variables_space_order = #id4
    } : memref<8x16x4x64xf16>, memref<1x4xi32> -> !ktdp.access_tile<1x16x1x64xindex>
    %k4 = ktdp.load %kt : !ktdp.access_tile<1x16x1x64xindex> -> tensor<1x16x1x64xf16>
    %k2 = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
    %e = math.exp %k2 : tensor<16x64xf16>
    %r = arith.muli %j, %c16 : index
    %ytile = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #ot, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %e, %ytile : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  }
  return
}
"""
"""y[16j : 16j+16] = exp(cache[table[0, j], :, head, :]) for j < 4: a paged cache's
1x16x1x64 indirect tile (page from the table, one head) collapsed to 16x64 (the
indirect tile's unit variables dropped)."""


SLICED_GENERICS = """#ms = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vs = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#ps = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#rs = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @sliced_generics(%x: index, %b: index, %y: index, %s: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %xv = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %bv = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {coordinate_set = #vs, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 32], strides: [32, 1] {coordinate_set = #ps, memory_space = #ktdp.memory_space<global>} : memref<2x32xf32>
  %sv = ktdp.construct_memory_view %s, sizes: [3], strides: [1] {coordinate_set = #rs, memory_space = #ktdp.memory_space<global>} : memref<3xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %bt = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #vs, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #ps, access_tile_order = #id2} : memref<2x32xf32> -> !ktdp.access_tile<2x32xindex>
  %st = ktdp.construct_access_tile %sv[%c0] {access_tile_set = #rs, access_tile_order = #id1} : memref<3xf32> -> !ktdp.access_tile<3xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %bias = ktdp.load %bt : !ktdp.access_tile<64xindex> -> tensor<64xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %bias : tensor<8x64xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8x64xf32>
  %part = tensor.extract_slice %sum[2, 16] [2, 32] [1, 1] : tensor<8x64xf32> to tensor<2x32xf32>
  ktdp.store %part, %yt : tensor<2x32xf32>, !ktdp.access_tile<2x32xindex>
  %init = tensor.splat %zero : tensor<8xf32>
  %rows = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.addf %p, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %three = tensor.extract_slice %rows[5] [3] [1] : tensor<8xf32> to tensor<3xf32>
  ktdp.store %three, %st : tensor<3xf32>, !ktdp.access_tile<3xindex>
  return
}
"""
"""y = (x + b)[2:4, 16:48] for 8x64 f32 x and a 64-element bias b broadcast along the
rows by the generic's map; s = the row sums of x[5:8] (a slice of a reduction)."""


STAGED = """func.func @rows(%out_ptr: index, %q_ptr: index, %start: index) attributes {grid = [4, 8]} {
  %pid0, %pid1 = ktdp.get_compute_tile_id : index, index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t2 = arith.muli %pid0, %c2 : index
  %t = arith.addi %start, %t2 : index
  %h = arith.muli %pid1, %c4 : index
  %qv = ktdp.construct_memory_view %q_ptr, sizes: [8, 32, 128], strides: [4096, 128, 1] {
    coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 127 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
  %ov = ktdp.construct_memory_view %out_ptr, sizes: [8, 32, 128], strides: [4096, 128, 1] {
    coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 127 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
  %qt = ktdp.construct_access_tile %qv[%t, %h, %c0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
  %q3 = ktdp.load %qt : !ktdp.access_tile<2x4x128xindex> -> tensor<2x4x128xf16>
  %q = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<2x4x128xf16> into tensor<8x128xf16>
  %zero = arith.constant 0.0 : f16
  %init = tensor.splat %zero : tensor<8xf16>
  %sums = linalg.reduce ins(%q : tensor<8x128xf16>) outs(%init : tensor<8xf16>) dimensions = [1]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  %e = tensor.empty() : tensor<8x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%q, %sums : tensor<8x128xf16>, tensor<8xf16>) outs(%e : tensor<8x128xf16>) {
    ^bb0(%x: f16, %s: f16, %o: f16):
      %y = arith.subf %x, %s : f16
      linalg.yield %y : f16
  } -> tensor<8x128xf16>
  %r3 = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 4, 128] : tensor<8x128xf16> into tensor<2x4x128xf16>
  %ot = ktdp.construct_access_tile %ov[%t, %h, %c0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
  ktdp.store %r3, %ot : tensor<2x4x128xf16>, !ktdp.access_tile<2x4x128xindex>
  return
}
"""
"""Per tile (a, b) of the 4 x 8 grid, the rows of tokens start + 2a, start + 2a + 1 and heads
4b .. 4b + 3 of the 8 x 32 x 128 f16 q, each less its sum (f16), written to out: a
2x4x128 tile collapsed to 8x128 rows and expanded back, which no strides describe
(copied through the scratchpad); tokens past 7 lie outside the views (masked)."""


def _f16(shape, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float16)


def _f32(shape, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _check(text: str, device: str, inputs: dict, expected: dict, element: str,
           length: int = 1) -> None:
    simulated, reference = run(text, device, inputs)
    expected = {**{k: v for k, v in inputs.items() if k not in expected}, **expected}
    agree(simulated, reference, expected, dict.fromkeys(expected, element), length)


@pytest.mark.parametrize("device", DEVICES)
def test_a_collapse_of_a_loaded_tile(device: str):
    x = _f16((4, 8, 64), 0)
    _check(COLLAPSED_LOAD, device, {"x": x, "y": np.zeros(2048, np.float16)},
           {"y": np.exp(x.astype(np.float64)).reshape(-1).astype(np.float16)}, "f16")


@pytest.mark.parametrize("device", DEVICES)
def test_an_expand_after_a_load_and_a_collapse_before_a_store(device: str):
    x, b = _f32(512, 1), _f32((8, 64), 2)
    _check(EXPANDED_STORE, device, {"x": x, "b": b, "y": np.zeros(512, np.float32)},
           {"y": x * b.reshape(-1)}, "f32")


@pytest.mark.parametrize("device", DEVICES)
def test_a_collapse_to_rank_zero_broadcast(device: str):
    x = np.array([[1.625]], np.float16)
    _check(RANK_ZERO, device, {"x": x, "y": np.zeros((4, 64), np.float16)},
           {"y": np.full((4, 64), 1.625, np.float16)}, "f16")


@pytest.mark.parametrize("device", DEVICES)
def test_a_collapse_to_rank_zero_extracted(device: str):
    x = np.array([[1.625]], np.float16)
    _check(RANK_ZERO_EXTRACT, device, {"x": x, "y": np.zeros(64, np.float16)},
           {"y": np.full(64, 3.25, np.float16)}, "f16")


@pytest.mark.parametrize("device", DEVICES)
def test_reshapes_between_compute(device: str):
    a, b, r = _f32((2, 64), 3), _f32(128, 4), _f32((8, 64), 5)
    inputs = {"a": a, "b": b, "y": np.zeros(128, np.float32), "r": r,
              "s": np.zeros((2, 4), np.float32)}
    expected = {"y": (2 * np.exp(a.astype(np.float64))).reshape(-1) + b,
                "s": r.astype(np.float64).sum(axis=1).reshape(2, 4)}
    _check(BETWEEN_COMPUTE, device, inputs, {k: v.astype(np.float32) for k, v in expected.items()},
           "f32", length=64)


@pytest.mark.parametrize("device", DEVICES)
def test_reshapes_and_slices_in_a_loop(device: str):
    x = _f16((8, 64), 6)
    wide = x.astype(np.float64)
    expected = ((wide + wide[0]) * wide).reshape(-1).astype(np.float16)
    _check(LOOPED, device, {"x": x, "y": np.zeros(512, np.float16)}, {"y": expected}, "f16", 2)


@pytest.mark.parametrize("device", DEVICES)
def test_a_stored_insert_slice(device: str):
    x = _f32((8, 64), 7)
    expected = -x
    expected[2:6, 16:48] = np.exp(x[2:6, 16:48].astype(np.float64))
    _check(INSERTED, device, {"x": x, "y": np.zeros_like(x)}, {"y": expected}, "f32")


@pytest.mark.parametrize("device", DEVICES)
def test_a_reshape_by_a_shape_operand_and_a_cast(device: str):
    x = np.abs(_f32((8, 64), 9))
    _check(RESHAPED, device, {"x": x, "y": np.zeros(512, np.float32)},
           {"y": np.sqrt(x.astype(np.float64)).reshape(-1).astype(np.float32)}, "f32")


@pytest.mark.parametrize("device", DEVICES)
def test_a_collapse_of_an_indirect_tile(device: str):
    cache = _f16((8, 16, 4, 64), 10)
    table = np.array([[5, 2, 7, 0]], np.int32)
    wide = np.exp(cache.astype(np.float64))
    expected = np.concatenate([wide[page, :, 2, :] for page in table[0]]).astype(np.float16)
    inputs = {"cache": cache, "table": table, "y": np.zeros((64, 64), np.float16), "head": 2}
    simulated, reference = run(INDIRECT, device, inputs)
    agree(simulated, reference, {"cache": cache, "table": table, "y": expected},
          {"cache": "f16", "table": "i32", "y": "f16"})


@pytest.mark.parametrize("device", DEVICES)
def test_slices_of_a_broadcasting_and_a_reducing_generic(device: str):
    x, b = _f32((8, 64), 11), _f32(64, 12)
    inputs = {"x": x, "b": b, "y": np.zeros((2, 32), np.float32), "s": np.zeros(3, np.float32)}
    expected = {"y": (x + b)[2:4, 16:48],
                "s": x[5:8].astype(np.float64).sum(axis=1).astype(np.float32)}
    _check(SLICED_GENERICS, device, inputs, expected, "f32", length=64)


@pytest.mark.parametrize("start", [0, 1])
@pytest.mark.parametrize("device", DEVICES)
def test_reshapes_no_strides_describe_copied_through_the_scratchpad(device: str, start: int):
    q = _f16((8, 32, 128), 13)
    wide = q.astype(np.float64)
    expected = np.zeros_like(q)
    expected[start:] = (wide - wide.sum(axis=2, keepdims=True))[start:].astype(np.float16)
    inputs = {"out_ptr": np.zeros_like(q), "q_ptr": q, "start": start}
    simulated, reference = run(STAGED, device, inputs)
    agree(simulated, reference, {"out_ptr": expected, "q_ptr": q},
          {"out_ptr": "f16", "q_ptr": "f16"}, 128)
