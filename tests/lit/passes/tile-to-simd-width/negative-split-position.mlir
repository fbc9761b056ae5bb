// A position along a loop split into tiles is the tile's start plus the position
// within the tile, a run-time value: on toy, whose 8 fp16 lanes split the 16
// positions, a division of it (which the run-time positions do not compute) is
// refused at the generic, naming the op.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width

#row = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [16], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #row, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<16xindex> -> tensor<16xf16>
    %empty = tensor.empty() : tensor<16xf16>
    // expected-error@+1 {{'linalg.generic' reads its element's position along a loop split into tiles (the SIMD lanes), where it is the tile's start (a run-time value) plus the position within the tile; its 'arith.divui' then computes on the element's position (linalg.index) with 'arith.divui', which no position computation takes}}
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf16>) outs(%empty : tensor<16xf16>) {
    ^bb0(%in: f16, %out: f16):
      %c2 = arith.constant 2 : index
      %i = linalg.index 0 : index
      %h = arith.divui %i, %c2 : index
      %ii = arith.index_cast %h : index to i32
      %f = arith.sitofp %ii : i32 to f16
      %s = arith.addf %in, %f : f16
      linalg.yield %s : f16
    } -> tensor<16xf16>
    ktdp.store %r, %x_tile : tensor<16xf16>, !ktdp.access_tile<16xindex>
    func.return
  }
}
