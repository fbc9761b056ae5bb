// A 2x4x32 add (IBM's basic_2 test) tiles from the innermost dimension outwards
// until the SIMD lanes are covered: spyre's 64 f16 lanes give [1, 2, 32] (32 of
// the last dimension, then 2 of the middle one), toy's 8 give [1, 1, 8]. There is
// one parallel loop per dimension, and the transfers index the tile with all three
// loop variables.

// RUN: ktc-opt %s --arch spyre -p construct-three-stage-pipeline | filecheck %s
// RUN: ktc-opt %s --arch toy -p construct-three-stage-pipeline | filecheck %s --check-prefix=TOY

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
// CHECK-NEXT:       ktdf.pipeline {
// CHECK-NEXT:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:              ktdf.data_transfer from %A_tile[%[[I]], %[[J]], %[[K]]] size [1, 2, 32] to %{{.+}}#0 size [1, 2, 32]
// CHECK-NEXT:         ktdf.data_transfer from %B_tile[%[[I]], %[[J]], %[[K]]] size [1, 2, 32] to %{{.+}}#1 size [1, 2, 32]
// CHECK:              ktdf.read_from_fifo %{{.+}}#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x2x32xf16>
// CHECK:              linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins({{.*}} : tensor<1x2x32xf16>, tensor<1x2x32xf16>) outs({{.*}} : tensor<1x2x32xf16>)
// CHECK:              ktdf.data_transfer from %{{.+}}#2 size [1, 2, 32] to %C_tile[%[[I]], %[[J]], %[[K]]] size [1, 2, 32]
// CHECK-COUNT-3:  } {loop_type = #ktdf.loop_type<parallel_loop>}

// TOY:      scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %[[ONE:.+]] {
// TOY-NEXT:   scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[ONE]] {
// TOY-NEXT:     scf.for %[[K:.+]] = %{{.+}} to %[[THIRTY_TWO:.+]] step %[[EIGHT:.+]] {
// TOY:              ktdf.data_transfer from %A_tile[%[[I]], %[[J]], %[[K]]] size [1, 1, 8] to %{{.+}}#0 size [1, 1, 8] : memref<2x4x32xf16, strided<[128, 32, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// TOY:              ktdf.read_from_fifo %{{.+}}#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x1x8xf16>
