// Every access tile a load or store uses becomes a strided view of its memory. The
// memory views are typed with the memory kind their KTIR space maps to (global is
// "DDR" on toy, "HBM" on the line of four cores; ct_local "L1" or "SPM"). A tile of
// rows 2r..2r+1 of an 8x16 view is a memref.reinterpret_cast of it at offset
// 16 * 2r (an affine.apply of the tile's start over the strides), named like the
// tile; the tile itself now starts at the cast's origin and keeps its coordinate
// set. A tile of the second half of a scratchpad buffer is a cast of the buffer
// (row-major strides) at offset 8; a tile of a whole buffer from its origin is left
// as it is. A view no load or store uses keeps its type.

// RUN: ktc-opt %s --arch toy -p lower-ktdp-views | filecheck %s
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p lower-ktdp-views | filecheck %s --check-prefix=LINE4

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#half = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %S: index, %U: index, %r: index) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %buffer = memref.alloc() : memref<16xf16, "L1">
    %x_view = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %s_view = ktdp.construct_memory_view %S, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
    %unused_view = ktdp.construct_memory_view %U, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %x_tile = ktdp.construct_access_tile %x_view[2 * %r, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<2x16xindex>
    %y_tile = ktdp.construct_access_tile %y_view[2 * %r, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<2x16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<2x16xindex> -> tensor<2x16xf16>
    %y = math.exp %x : tensor<2x16xf16>
    ktdp.store %y, %y_tile : tensor<2x16xf16>, !ktdp.access_tile<2x16xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %whole = ktdp.construct_access_tile %buffer[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<16xf16, "L1"> -> !ktdp.access_tile<16xindex>
    %back_half = ktdp.construct_access_tile %buffer[%c8] {access_tile_set = #half, access_tile_order = #id1} : memref<16xf16, "L1"> -> !ktdp.access_tile<8xindex>
    %s = ktdp.load %s_tile : !ktdp.access_tile<16xindex> -> tensor<16xf16>
    ktdp.store %s, %whole : tensor<16xf16>, !ktdp.access_tile<16xindex>
    %b = ktdp.load %back_half : !ktdp.access_tile<8xindex> -> tensor<8xf16>
    %doubled = arith.addf %b, %b : tensor<8xf16>
    ktdp.store %doubled, %back_half : tensor<8xf16>, !ktdp.access_tile<8xindex>
    func.return
  }
}

// CHECK-DAG:   [[ROWS_OFFSET:#map[0-9]*]] = affine_map<(d0, d1) -> (d0 * 32 + d1)>
// CHECK-DAG:   [[AT:#map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[BUFFER:.+]] = memref.alloc() : memref<16xf16, "L1">
// CHECK-NEXT:    %[[X_VIEW:.+]] = ktdp.construct_memory_view %X, {{.*}} : memref<8x16xf16, "DDR">
// CHECK-NEXT:    %[[Y_VIEW:.+]] = ktdp.construct_memory_view %Y, {{.*}} : memref<8x16xf16, "DDR">
// CHECK-NEXT:    %[[S_VIEW:.+]] = ktdp.construct_memory_view %S, {{.*}} : memref<16xf16, "L1">
// CHECK-NEXT:    %unused_view = ktdp.construct_memory_view %U, {{.*}} : memref<16xf16>
// CHECK-NEXT:    %[[X_OFFSET:.+]] = affine.apply [[ROWS_OFFSET]](%r, %c0)
// CHECK-NEXT:    %x_tile = memref.reinterpret_cast %[[X_VIEW]] to offset: [%[[X_OFFSET]]], sizes: [2, 16], strides: [16, 1] : memref<8x16xf16, "DDR"> to memref<2x16xf16, strided<[16, 1], offset: ?>, "DDR">
// CHECK-NEXT:    %[[X_TILE:.+]] = ktdp.construct_access_tile %x_tile[0, 0] {{.*}} : memref<2x16xf16, strided<[16, 1], offset: ?>, "DDR"> -> !ktdp.access_tile<2x16xindex>
// CHECK-NEXT:    %[[Y_OFFSET:.+]] = affine.apply [[ROWS_OFFSET]](%r, %c0)
// CHECK-NEXT:    %y_tile = memref.reinterpret_cast %[[Y_VIEW]] to offset: [%[[Y_OFFSET]]], sizes: [2, 16]
// CHECK-NEXT:    %[[Y_TILE:.+]] = ktdp.construct_access_tile %y_tile[0, 0]
// CHECK-NEXT:    %[[X:.+]] = ktdp.load %[[X_TILE]] : <2x16xindex> -> tensor<2x16xf16>
// CHECK-NEXT:    %[[Y:.+]] = math.exp %[[X]]
// CHECK-NEXT:    ktdp.store %[[Y]], %[[Y_TILE]]
// CHECK-NEXT:    %[[S_OFFSET:.+]] = affine.apply [[AT]](%c0)
// CHECK-NEXT:    %s_tile = memref.reinterpret_cast %[[S_VIEW]] to offset: [%[[S_OFFSET]]], sizes: [16], strides: [1] : memref<16xf16, "L1"> to memref<16xf16, strided<[1], offset: ?>, "L1">
// CHECK-NEXT:    %[[S_TILE:.+]] = ktdp.construct_access_tile %s_tile[0]
// CHECK-NEXT:    %[[WHOLE:.+]] = ktdp.construct_access_tile %[[BUFFER]][0] {{.*}} : memref<16xf16, "L1"> -> !ktdp.access_tile<16xindex>
// CHECK-NEXT:    %[[HALF_OFFSET:.+]] = affine.apply [[AT]](%c8)
// CHECK-NEXT:    %back_half = memref.reinterpret_cast %[[BUFFER]] to offset: [%[[HALF_OFFSET]]], sizes: [8], strides: [1] : memref<16xf16, "L1"> to memref<8xf16, strided<[1], offset: ?>, "L1">
// CHECK-NEXT:    %[[HALF:.+]] = ktdp.construct_access_tile %back_half[0] {{.*}} -> !ktdp.access_tile<8xindex>
// CHECK-NEXT:    %[[S:.+]] = ktdp.load %[[S_TILE]]
// CHECK-NEXT:    ktdp.store %[[S]], %[[WHOLE]]
// CHECK-NEXT:    %[[B:.+]] = ktdp.load %[[HALF]]
// CHECK-NEXT:    %[[D:.+]] = arith.addf %[[B]], %[[B]]
// CHECK-NEXT:    ktdp.store %[[D]], %[[HALF]]

// LINE4:         ktdp.construct_memory_view %X, {{.*}} : memref<8x16xf16, "HBM">
// LINE4:         ktdp.construct_memory_view %S, {{.*}} : memref<16xf16, "SPM">
// LINE4:         memref.reinterpret_cast {{.*}} : memref<8x16xf16, "HBM"> to memref<2x16xf16, strided<[16, 1], offset: ?>, "HBM">
