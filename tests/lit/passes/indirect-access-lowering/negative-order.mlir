// The lowering refuses, at the tile, an indirect tile whose variables space is
// enumerated in another order than the identity (the gather writes the tile's
// buffer row-major); ktir-legality-check refuses it with the same words.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p indirect-access-lowering

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed(%x: index, %idx: index, %y: index) {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %y_view = ktdp.construct_memory_view %y, sizes: [16, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
  // expected-error@+1 {{'ktdp.construct_indirect_access_tile' has a variables_space_order that is not the identity; another order transposes the tile}}
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #swap
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<16x8xindex>
  %yt = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #out, access_tile_order = #identity} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<16x8xindex> -> tensor<16x8xf16>
  ktdp.store %v, %yt : tensor<16x8xf16>, !ktdp.access_tile<16x8xindex>
  return
}
