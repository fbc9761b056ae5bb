// Broadcasts fuse into the one generic that uses them. C = (A + B) * s, with A a
// row broadcast over the 4 rows of B (linalg.broadcast) and s one element of a
// scratchpad (ct_local) vector taken with tensor.extract and splat: A is read
// through (d0, d1) -> (d1) and moves one 8-element piece per tile, s through
// (d0, d1) -> (0) and moves one element, from the scratchpad kind ("L1" ->
// "SFU"), at its fixed position.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%A: index, %B: index, %S: index, %C: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_view = ktdp.construct_memory_view %A, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
    %b_view = ktdp.construct_memory_view %B, sizes: [64, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %c_view = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %a_tile = ktdp.construct_access_tile %a_view[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    %b_tile = ktdp.construct_access_tile %b_view[%row, %c0] {access_tile_set = #mat, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %c_tile = ktdp.construct_access_tile %c_view[%row, %c0] {access_tile_set = #mat, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %a = ktdp.load %a_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %s = ktdp.load %s_tile : !ktdp.access_tile<1xindex> -> tensor<1xf16>
    %b = ktdp.load %b_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %init = tensor.empty() : tensor<4x64xf16>
    %a_rows = linalg.broadcast ins(%a : tensor<64xf16>) outs(%init : tensor<4x64xf16>) dimensions = [0]
    %sum = arith.addf %a_rows, %b : tensor<4x64xf16>
    %scalar = tensor.extract %s[%c0] : tensor<1xf16>
    %scale = tensor.splat %scalar : tensor<4x64xf16>
    %scaled = arith.mulf %sum, %scale : tensor<4x64xf16>
    ktdp.store %scaled, %c_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
    return
  }
}

// CHECK-DAG:   [[COLUMN:#map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   [[ID:#map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   [[FIRST:#map[0-9]*]] = affine_map<(d0, d1) -> (0)>
// CHECK:       %s_view = ktdp.construct_memory_view %S, {{.*}} memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16, "L1">
// CHECK:       %s_tile = memref.reinterpret_cast %s_view to offset: [%s_tile_offset], sizes: [1], strides: [1] : memref<64xf16, "L1"> to memref<1xf16, strided<[1], offset: ?>, "L1">
// CHECK:       scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:    scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %[[P:.+]]:7 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:          ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// CHECK-NEXT:          ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1" -> "SFU", 1xf16>
// CHECK-NEXT:          ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
// CHECK:             ktdf.data_transfer from %a_tile[%[[J]]] size [8] to %[[P]]#0 size [8]
// CHECK-NEXT:        ktdf.data_transfer from %s_tile[0] size [1] to %[[P]]#2 size [1] : memref<1xf16, strided<[1], offset: ?>, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 1xf16>
// CHECK-NEXT:        ktdf.data_transfer from %b_tile[%[[I]], %[[J]]] size [1, 8] to %[[P]]#1 size [1, 8]
// CHECK:             %[[A:.+]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 8xf16> -> tensor<8xf16>
// CHECK-NEXT:        %[[S:.+]] = ktdf.read_from_fifo %[[P]]#2 : <"L1" -> "SFU", 1xf16> -> tensor<1xf16>
// CHECK-NEXT:        %[[B:.+]] = ktdf.read_from_fifo %[[P]]#1 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:        %[[EMPTY:.+]] = tensor.empty() : tensor<1x8xf16>
// CHECK-NEXT:        %[[OUT:.+]] = linalg.generic {indexing_maps = [[[COLUMN]], [[ID]], [[FIRST]], [[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]], %[[S]] : tensor<8xf16>, tensor<1x8xf16>, tensor<1xf16>) outs(%[[EMPTY]] : tensor<1x8xf16>) {
// CHECK-NEXT:        ^bb0(%[[AE:.+]]: f16, %[[BE:.+]]: f16, %[[SE:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:          %[[ADD:.+]] = arith.addf %[[AE]], %[[BE]] : f16
// CHECK-NEXT:          %[[MUL:.+]] = arith.mulf %[[ADD]], %[[SE]] : f16
// CHECK-NEXT:          linalg.yield %[[MUL]] : f16
// CHECK-NEXT:        } -> tensor<1x8xf16>
// CHECK-NEXT:        ktdf.write_to_fifo %[[OUT]], %[[P]]#3
// CHECK:             ktdf.data_transfer from %[[P]]#3 size [1, 8] to %c_tile[%[[I]], %[[J]]] size [1, 8]
// CHECK-NOT:   linalg.generic
