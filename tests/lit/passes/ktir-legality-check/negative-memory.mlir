// Memory must be reachable the way the pipeline moves data: a view lives in
// global memory or in a tile's ct_local scratchpad (not in an unspecified space;
// another tile's is stored into at a start each tile can compute for any other: not
// from a loop whose bounds depend on the tile id), a scratchpad view
// at a constant address (the compiler keeps its buffers clear of it), and an access tile
// addresses a memory view in an order that permutes its dimensions (not one that mixes
// them), a view whose
// coordinate set is a box from 0 (the compiler masks accesses outside such a box only).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @unspecified(%x: index) {
  // expected-error@+1 {{'ktdp.construct_memory_view' names no memory space; a view lives in global or ct_local memory}}
  %view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<64xf16>
  return
}

// -----

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @other_scratchpad(%x: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %at = arith.constant 256 : index
  %source = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %view = ktdp.construct_memory_view %at, sizes: [2, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x64xf16>
  %in = ktdp.construct_access_tile %source[%c0] {access_tile_set = #vector, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %v = ktdp.load %in : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %row = tensor.expand_shape %v [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
  %t = ktdp.get_compute_tile_id : index
  %trips = arith.addi %t, %c1 : index
  scf.for %i = %c0 to %trips step %c1 {
    %out = ktdp.construct_access_tile %view[%i, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    // expected-error@+1 {{stores into another tile's scratchpad at a start computed from other than constants, the tile id, launch arguments and the indices of loops that run the same iterations on every tile; the copies over the interconnect are planned per tile, from starts each tile computes for any other}}
    ktdp.store %row, %out : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}

// -----

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @scratchpad_at_argument(%x: index) {
  // expected-error@+1 {{'ktdp.construct_memory_view' places data in the tile's scratchpad at an address that is not a constant; the compiler keeps its own scratchpad buffers clear of the kernel's only at constant addresses}}
  %view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
  return
}

// -----

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#skew = affine_map<(d0, d1) -> (d0 + d1, d1)>
func.func @skewed(%x: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  // expected-error@+1 {{'ktdp.construct_access_tile' has access_tile_order (d0, d1) -> (d0 + d1, d1); the compiler reads tiles in an order that permutes their dimensions only}}
  %tile = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #skew} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @tensor_base(%s: f16) {
  %c0 = arith.constant 0 : index
  %t = tensor.splat %s : tensor<64xf16>
  // expected-error@+1 {{'ktdp.construct_access_tile' must address a ktdp.construct_memory_view or a distributed view; a tile of a tensor is not compiled: take its part with tensor.extract_slice, or store the tensor through a view and tile that}}
  %tile = ktdp.construct_access_tile %t[%c0] {access_tile_set = #vector, access_tile_order = #identity} : tensor<64xf16> -> !ktdp.access_tile<64xindex>
  return
}

// -----

#from_two = affine_set<(d0) : (d0 - 2 >= 0, -d0 + 63 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @not_from_zero(%x: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #from_two, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error@+1 {{'ktdp.construct_access_tile' indexes a view whose coordinate set affine_set<(d0) : (d0 - 2 >= 0, -d0 + 63 >= 0)> is not a box 0 <= d_j < n_j per dimension; the compiler masks accesses outside a box only}}
  %tile = ktdp.construct_access_tile %view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  return
}

// -----

#triangle = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, d0 - d1 >= 0)>
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @triangle(%x: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #triangle, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  // expected-error@+1 {{coordinate set affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, d0 - d1 >= 0)> is not a box}}
  %tile = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #identity} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  return
}
