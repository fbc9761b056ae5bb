// A tile of a scratchpad buffer is moved by a load or store unit as one contiguous
// block (no DMA gathers it), so it keeps to whole rows. Rows of 3 f16 on spyre (64
// lanes): from device memory the columns take gcd(3, 64) = 1 and the rows the 2 that
// are left, a 2 x 1 column that the DMA gathers; from a 2 x 3 buffer in the
// scratchpad the rows take 1 as well, so each tile is one element of one row.

// RUN: ktc-opt %s --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s

#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  // CHECK-LABEL: func.func @local_schedule_0
  // CHECK:       ktdp.load {{.*}} -> tensor<2x1xf16>
  // CHECK:       ktdp.store {{.*}} : tensor<2x1xf16>
  module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [2, 3], strides: [3, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x3xf16>
      %y_view = ktdp.construct_memory_view %Y, sizes: [2, 3], strides: [3, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x3xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x3xf16> -> !ktdp.access_tile<2x3xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x3xf16> -> !ktdp.access_tile<2x3xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<2x3xindex> -> tensor<2x3xf16>
      %y = arith.negf %x : tensor<2x3xf16>
      ktdp.store %y, %y_tile : tensor<2x3xf16>, !ktdp.access_tile<2x3xindex>
      func.return
    }
  }
  // CHECK-LABEL: func.func @local_schedule_1
  // CHECK:       ktdp.load {{.*}} -> tensor<1x1xf16>
  // CHECK:       ktdp.store {{.*}} : tensor<1x1xf16>
  module @local_schedule_1 {
    func.func @local_schedule_1(%Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %buffer = memref.alloc() : memref<2x3xf16, "L1">
      %y_view = ktdp.construct_memory_view %Y, sizes: [2, 3], strides: [3, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x3xf16>
      %x_tile = ktdp.construct_access_tile %buffer[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x3xf16, "L1"> -> !ktdp.access_tile<2x3xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x3xf16> -> !ktdp.access_tile<2x3xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<2x3xindex> -> tensor<2x3xf16>
      %y = arith.negf %x : tensor<2x3xf16>
      ktdp.store %y, %y_tile : tensor<2x3xf16>, !ktdp.access_tile<2x3xindex>
      func.return
    }
  }
}
