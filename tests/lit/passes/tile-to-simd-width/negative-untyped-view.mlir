// The tiles index views typed with their memory kind, which lower-ktdp-views makes:
// a load of a tile of a memory view not yet typed (the pass run without it) is
// reported at the load.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p generalize-and-fuse,tile-to-simd-width

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    // expected-error@+1 {{the access tile is not one of a view typed with its memory kind; 'lower-ktdp-views' makes it one}}
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %y = math.exp %x : tensor<64xf16>
    ktdp.store %y, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}
