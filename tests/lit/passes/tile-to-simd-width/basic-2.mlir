// A 2x4x32 add (IBM's basic_2 test) tiles from the innermost dimension outwards
// until the SIMD lanes are covered: spyre's 64 f16 lanes give [1, 2, 32] (32 of
// the last dimension, then 2 of the middle one), toy's 8 give [1, 1, 8]. There is
// one parallel loop per dimension, and the tiles of the views start at all three
// loop variables.

// RUN: ktc-opt %s --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s
// RUN: ktc-opt %s --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s --check-prefix=TOY

#box = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module @local_schedule_0 {
  func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %A_view = ktdp.construct_memory_view %A, sizes: [2, 4, 32], strides: [128, 32, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<2x4x32xf16>
    %B_view = ktdp.construct_memory_view %B, sizes: [2, 4, 32], strides: [128, 32, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<2x4x32xf16>
    %C_view = ktdp.construct_memory_view %C, sizes: [2, 4, 32], strides: [128, 32, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<2x4x32xf16>
    %A_tile = ktdp.construct_access_tile %A_view[%c0, %c0, %c0] {access_tile_set = #box, access_tile_order = #order} : memref<2x4x32xf16> -> !ktdp.access_tile<2x4x32xindex>
    %B_tile = ktdp.construct_access_tile %B_view[%c0, %c0, %c0] {access_tile_set = #box, access_tile_order = #order} : memref<2x4x32xf16> -> !ktdp.access_tile<2x4x32xindex>
    %C_tile = ktdp.construct_access_tile %C_view[%c0, %c0, %c0] {access_tile_set = #box, access_tile_order = #order} : memref<2x4x32xf16> -> !ktdp.access_tile<2x4x32xindex>
    %a = ktdp.load %A_tile : !ktdp.access_tile<2x4x32xindex> -> tensor<2x4x32xf16>
    %b = ktdp.load %B_tile : !ktdp.access_tile<2x4x32xindex> -> tensor<2x4x32xf16>
    %sum = arith.addf %a, %b : tensor<2x4x32xf16>
    ktdp.store %sum, %C_tile : tensor<2x4x32xf16>, !ktdp.access_tile<2x4x32xindex>
    func.return
  }
}

// CHECK:      %C_tile = memref.reinterpret_cast %C_view to offset: [%C_tile_offset], sizes: [2, 4, 32], strides: [128, 32, 1] : memref<2x4x32xf16, "DDR"> to memref<2x4x32xf16, strided<[128, 32, 1], offset: ?>, "DDR">
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[FOUR:.+]] = arith.constant 4 : index
// CHECK-NEXT: %[[THIRTY_TWO:.+]] = arith.constant 32 : index
// CHECK-NEXT: scf.for %[[I:.+]] = %[[ZERO]] to %[[TWO]] step %[[ONE]] {
// CHECK-NEXT:   scf.for %[[J:.+]] = %[[ZERO]] to %[[FOUR]] step %[[TWO]] {
// CHECK-NEXT:     scf.for %[[K:.+]] = %[[ZERO]] to %[[THIRTY_TWO]] step %[[THIRTY_TWO]] {
// CHECK-NEXT:       %[[A_TILE:.+]] = ktdp.construct_access_tile %A_tile[%[[I]], %[[J]], %[[K]]] {{.*}} -> !ktdp.access_tile<1x2x32xindex>
// CHECK-NEXT:       %[[A:.+]] = ktdp.load %[[A_TILE]] : <1x2x32xindex> -> tensor<1x2x32xf16>
// CHECK-NEXT:       %[[B_TILE:.+]] = ktdp.construct_access_tile %B_tile[%[[I]], %[[J]], %[[K]]]
// CHECK-NEXT:       %[[B:.+]] = ktdp.load %[[B_TILE]] : <1x2x32xindex> -> tensor<1x2x32xf16>
// CHECK-NEXT:       %[[EMPTY:.+]] = tensor.empty() : tensor<1x2x32xf16>
// CHECK-NEXT:       %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<1x2x32xf16>, tensor<1x2x32xf16>) outs(%[[EMPTY]] : tensor<1x2x32xf16>)
// CHECK:            %[[C_TILE:.+]] = ktdp.construct_access_tile %C_tile[%[[I]], %[[J]], %[[K]]]
// CHECK-NEXT:       ktdp.store %[[SUM]], %[[C_TILE]] : tensor<1x2x32xf16>, <1x2x32xindex>
// CHECK-COUNT-3:  } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NOT:      ktdp.load

// TOY:      scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %[[ONE:.+]] {
// TOY-NEXT:   scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[ONE]] {
// TOY-NEXT:     scf.for %[[K:.+]] = %{{.+}} to %[[THIRTY_TWO:.+]] step %[[EIGHT:.+]] {
// TOY-NEXT:       %[[A_TILE:.+]] = ktdp.construct_access_tile %A_tile[%[[I]], %[[J]], %[[K]]] {{.*}} : memref<2x4x32xf16, strided<[128, 32, 1], offset: ?>, "DDR"> -> !ktdp.access_tile<1x1x8xindex>
// TOY-NEXT:       ktdp.load %[[A_TILE]] : <1x1x8xindex> -> tensor<1x1x8xf16>
