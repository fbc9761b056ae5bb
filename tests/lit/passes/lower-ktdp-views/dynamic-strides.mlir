// A view whose row stride %ld is known only at launch: the tile of rows 2r..2r+1 is
// a memref.reinterpret_cast whose strides are [%ld, 1] (strided<[?, 1]>) and whose
// offset is computed in arith, the tile's start coordinates (affine.apply each)
// times the strides (a stride of 1 multiplies nothing), summed; the tile starts at the cast's origin.

// RUN: ktc-opt %s --arch toy -p lower-ktdp-views | filecheck %s

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %ld: index, %r: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [%ld, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %x_tile = ktdp.construct_access_tile %x_view[2 * %r, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<2x16xindex>
    %y_tile = ktdp.construct_access_tile %y_view[2 * %r, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<2x16xindex>
    %v = ktdp.load %x_tile : !ktdp.access_tile<2x16xindex> -> tensor<2x16xf16>
    ktdp.store %v, %y_tile : tensor<2x16xf16>, !ktdp.access_tile<2x16xindex>
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0
// CHECK:         %[[X:.*]] = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [%ld, 1]{{.*}} : memref<8x16xf16, "DDR">
// CHECK:         %[[ROW:.*]] = affine.apply #{{.*}}(%r, %c0)
// CHECK-NEXT:    %[[ROWS:.*]] = arith.muli %[[ROW]], %ld : index
// CHECK-NEXT:    %[[COL:.*]] = affine.apply #{{.*}}(%r, %c0)
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.addi %[[ROWS]], %[[COL]] : index
// CHECK-NEXT:    %x_tile = memref.reinterpret_cast %[[X]] to offset: [%[[OFFSET]]], sizes: [2, 16], strides: [%ld, 1] : memref<8x16xf16, "DDR"> to memref<2x16xf16, strided<[?, 1], offset: ?>, "DDR">
// CHECK-NEXT:    ktdp.construct_access_tile %x_tile[0, 0]
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2, 16], strides: [16, 1]
