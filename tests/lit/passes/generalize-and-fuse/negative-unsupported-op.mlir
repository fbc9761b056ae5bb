// What the compute stage cannot run is reported at the op: a reshape of a tensor,
// and a tensor constant that is not a splat.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p generalize-and-fuse

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [8, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
    // expected-error@+1 {{'tensor.collapse_shape' is not an elementwise, broadcast or reduction op; the compute stage cannot run it}}
    %flat = tensor.collapse_shape %x [[0, 1]] : tensor<8x8xf16> into tensor<64xf16>
    ktdp.store %flat, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}

// -----

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [4], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [4], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<4xf16> -> !ktdp.access_tile<4xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<4xf16> -> !ktdp.access_tile<4xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<4xindex> -> tensor<4xf16>
    // expected-error@+1 {{'arith.constant' is not an elementwise, broadcast or reduction op; the compute stage cannot run it}}
    %ramp = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf16>
    %y = arith.addf %x, %ramp : tensor<4xf16>
    ktdp.store %y, %y_tile : tensor<4xf16>, !ktdp.access_tile<4xindex>
    func.return
  }
}
