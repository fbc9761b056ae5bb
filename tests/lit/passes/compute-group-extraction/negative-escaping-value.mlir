// A value computed inside a compute group leaves it only through ktdp.store: a
// kernel that also returns it is rejected at the return.

// RUN: ktc-opt %s -p compute-group-extraction --verify-diagnostics

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @returns_data(%X: index) -> tensor<64xf16> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t1 = ktdp.construct_access_tile %view[%c64] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e = math.exp %x : tensor<64xf16>
  ktdp.store %e, %t1 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  // expected-error@+1 {{'func.return' uses the result of 'math.exp' from a compute group; a compute group's results leave it only through ktdp.store}}
  return %e : tensor<64xf16>
}
