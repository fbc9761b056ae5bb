// Indirect access tiles the compiler does not gather are rejected with the reason: a
// variables space enumerated in another order than the identity (it would transpose
// the tile), an index view in a scratchpad rather than device memory, and an index
// view whose coordinate set is not a box (its masking clamps to a box).

// RUN: ktc-opt %s --verify-diagnostics --split-input-file --arch toy -p ktir-legality-check

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed(%x: index, %idx: index) {
  %x_view = ktdp.construct_memory_view %x, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  // expected-error@+1 {{'ktdp.construct_indirect_access_tile' has a variables_space_order that is not the identity; another order transposes the tile}}
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #swap
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  return
}

// -----

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @local_indices(%x: index) {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %idx_view = ktdp.construct_memory_view %c0, sizes: [8], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<ct_local>} : memref<8xi32>
  // expected-error@+1 {{'ktdp.construct_indirect_access_tile' has an index view outside device memory (global); the compiler gathers from and scatters to device memory}}
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  return
}

// -----

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#even = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0, d0 mod 2 == 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided_indices(%x: index, %idx: index) {
  %x_view = ktdp.construct_memory_view %x, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {coordinate_set = #even, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  // expected-error@+1 {{'ktdp.construct_indirect_access_tile' has an index view whose coordinate set is not a box 0 <= d_j < n_j of constant extents; the compiler masks indirect accesses at such a box}}
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  return
}
