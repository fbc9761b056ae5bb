// Each access tile becomes a strided view of its memory view, so the pass needs
// the tile laid out as it lies in memory (identity access_tile_order) and a memory
// view at all (not some other memref).
// Each failure is reported at the op at fault.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p lower-ktdp-views

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    // expected-error@+1 {{access tile order (d0, d1) -> (d1, d0) is not the identity; the pipeline reads tiles in the order they lie in memory}}
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x16xf16> -> !ktdp.access_tile<16x8xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<16x8xindex> -> tensor<16x8xf16>
    %init = tensor.empty() : tensor<8x16xf16>
    %y = linalg.transpose ins(%x : tensor<16x8xf16>) outs(%init : tensor<8x16xf16>) permutation = [1, 0]
    ktdp.store %y, %y_tile : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    func.return
  }
}

// -----

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: memref<8x16xf16>, %Y: index) {
    %c0 = arith.constant 0 : index
    %y_view = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    // expected-error@+1 {{the access tile indexes a value of a block argument; the pipeline needs a 'ktdp.construct_memory_view' to know its memory}}
    %x_tile = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
    %y = math.exp %x : tensor<8x16xf16>
    ktdp.store %y, %y_tile : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    func.return
  }
}

// -----

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{device @toy has no memory "unspecified" for this memory view's space}}
    %x_view = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<8x16xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
    %y = math.exp %x : tensor<8x16xf16>
    ktdp.store %y, %y_tile : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    func.return
  }
}
