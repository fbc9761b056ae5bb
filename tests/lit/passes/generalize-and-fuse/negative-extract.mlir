// An element taken out of a tensor with tensor.extract at a position that is not
// constant cannot be read by the compute stage: it is reported at the extract.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p generalize-and-fuse

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %k: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    // expected-error@+1 {{'tensor.extract' is supported at constant indices only}}
    %kth = tensor.extract %x[%k] : tensor<64xf16>
    %splat = tensor.splat %kth : tensor<64xf16>
    %y = arith.subf %x, %splat : tensor<64xf16>
    ktdp.store %y, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}
