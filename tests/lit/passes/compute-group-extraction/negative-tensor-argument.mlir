// A program receives data only through ktdp.load: a tensor that would have to be
// passed to it as an argument (here a kernel argument) is rejected at its user.

// RUN: ktc-opt %s --split-input-file -p compute-group-extraction --verify-diagnostics

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @tensor_argument(%data: tensor<64xf16>, %X: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  // expected-error@+1 {{'ktdp.store' uses a tensor<64xf16> defined outside its compute group; data enters a compute group only through ktdp.load}}
  ktdp.store %data, %t0 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @tensor_argument_in_compute(%bias: tensor<64xf16>, %X: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  // expected-error@+1 {{'arith.addf' uses a tensor<64xf16> defined outside its compute group}}
  %y = arith.addf %x, %bias : tensor<64xf16>
  ktdp.store %y, %t0 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
