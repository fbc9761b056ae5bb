// The pipeline moves tiles of views typed with their memory kind, in the order they
// lie in memory: a load of a tile of a memory view not yet typed (the pass run
// right after compute-group-extraction), or of a tile in another order, is reported
// at the load.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p generalize-and-fuse,construct-three-stage-pipeline

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    // expected-error@+1 {{the pipeline moves tiles in their order of a view typed with its memory kind; 'lower-ktdp-views' and 'tile-to-simd-width' make them}}
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %y = math.exp %x : tensor<64xf16>
    ktdp.store %y, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}

// -----

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: memref<8x8xf16, "DDR">, %Y: memref<8x8xf16, "DDR">) {
    %x_tile = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #mat, access_tile_order = #swap} : memref<8x8xf16, "DDR"> -> !ktdp.access_tile<8x8xindex>
    %y_tile = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #mat, access_tile_order = #id} : memref<8x8xf16, "DDR"> -> !ktdp.access_tile<8x8xindex>
    // expected-error@+1 {{the pipeline moves tiles in their order of a view typed with its memory kind; 'lower-ktdp-views' and 'tile-to-simd-width' make them}}
    %x = ktdp.load %x_tile : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
    %y = math.exp %x : tensor<8x8xf16>
    ktdp.store %y, %y_tile : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
    func.return
  }
}
