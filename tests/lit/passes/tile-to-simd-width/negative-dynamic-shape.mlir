// The compute stage works on tiles of a static shape: a tensor whose size is only
// known at run time (from an access tile of dynamic size) is reported at the
// generic that computes on it.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width

#vec = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %n: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [%n], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [%n], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] symbols(%n) {access_tile_set = #vec, access_tile_order = #id} : memref<?xf16> -> !ktdp.access_tile<?xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] symbols(%n) {access_tile_set = #vec, access_tile_order = #id} : memref<?xf16> -> !ktdp.access_tile<?xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<?xindex> -> tensor<?xf16>
    // expected-error@+1 {{'linalg.generic' works on tensor<?xf16>; the compute stage needs tensors of static shape}}
    %y = math.exp %x : tensor<?xf16>
    ktdp.store %y, %y_tile : tensor<?xf16>, !ktdp.access_tile<?xindex>
    func.return
  }
}
