// The five passes from compute groups to pipelines, in order
// (materialize-phase-buffers, generalize-and-fuse, lower-ktdp-views,
// tile-to-simd-width, construct-three-stage-pipeline), on the add of IBM's basic
// test: each compute tile adds a 3x64 f16 tile of A and B into C. The program
// becomes a loop nest tiled to the SIMD width (toy: 8 f16 lanes, so [1, 8]; spyre:
// 64, so [1, 64]) around a three-stage pipeline: the two operand tiles go from
// device memory into FIFO slots, the compute engine adds them in one
// linalg.generic, and the result slot goes back to C. The views are typed with the
// device memory kind and each access tile becomes a strided view at its offset.
// The orchestrator module is left alone. The other files of this folder but
// basic.mlir, idempotent.mlir and the negative ones run the same five passes.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s
// RUN: ktc-opt %s --arch spyre -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=SPYRE

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
module {
  module {
    func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32]} {
      func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index)
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [32]} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %id = ktdp.get_compute_tile_id : index
      %row = arith.muli %id, %c3 : index
      %A_view = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %B_view = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %C_view = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %A_tile = ktdp.construct_access_tile %A_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
      %B_tile = ktdp.construct_access_tile %B_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
      %a = ktdp.load %A_tile : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
      %b = ktdp.load %B_tile : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
      %init = tensor.empty() : tensor<3x64xf16>
      %sum = linalg.add ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%init : tensor<3x64xf16>) -> tensor<3x64xf16>
      %C_tile = ktdp.construct_access_tile %C_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
      ktdp.store %sum, %C_tile : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
      func.return
    }
  }
}

// CHECK-DAG:   [[OFFSET:#map[0-9]*]] = affine_map<(d0, d1) -> (d0 * 64 + d1)>
// CHECK-DAG:   [[ID:#map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add(
// CHECK-NEXT:    call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[ROW:.+]] = arith.muli
// CHECK-NEXT:    %[[A_VIEW:.+]] = ktdp.construct_memory_view %A, {{.*}} : memref<96x64xf16, "DDR">
// CHECK-NEXT:    %[[B_VIEW:.+]] = ktdp.construct_memory_view %B, {{.*}} : memref<96x64xf16, "DDR">
// CHECK-NEXT:    %[[C_VIEW:.+]] = ktdp.construct_memory_view %C, {{.*}} : memref<96x64xf16, "DDR">
// CHECK-NEXT:    %[[A_OFFSET:.+]] = affine.apply [[OFFSET]](%[[ROW]], %c0)
// CHECK-NEXT:    %[[A:.+]] = memref.reinterpret_cast %[[A_VIEW]] to offset: [%[[A_OFFSET]]], sizes: [3, 64], strides: [64, 1] : memref<96x64xf16, "DDR"> to memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">
// CHECK-NEXT:    %[[B_OFFSET:.+]] = affine.apply [[OFFSET]](%[[ROW]], %c0)
// CHECK-NEXT:    %[[B:.+]] = memref.reinterpret_cast %[[B_VIEW]] to offset: [%[[B_OFFSET]]], sizes: [3, 64]
// CHECK-NEXT:    %[[C_OFFSET:.+]] = affine.apply [[OFFSET]](%[[ROW]], %c0)
// CHECK-NEXT:    %[[C:.+]] = memref.reinterpret_cast %[[C_VIEW]] to offset: [%[[C_OFFSET]]], sizes: [3, 64]
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[THREE:.+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[EIGHT:.+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SIXTY_FOUR:.+]] = arith.constant 64 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[ZERO]] to %[[THREE]] step %[[ONE]] {
// CHECK-NEXT:      scf.for %[[J:.+]] = %[[ZERO]] to %[[SIXTY_FOUR]] step %[[EIGHT]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          %[[P:.+]]:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:            %[[IN:.+]]:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// CHECK-NEXT:            %[[OUT:.+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
// CHECK-COUNT-3:         ktdf.create_token
// CHECK-NEXT:            ktdf.private_yield %[[IN]]#0, %[[IN]]#1, %[[OUT]],
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:            ktdf.data_transfer from %[[A]][%[[I]], %[[J]]] size [1, 8] to %[[P]]#0 size [1, 8] : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// CHECK-NEXT:            ktdf.data_transfer from %[[B]][%[[I]], %[[J]]] size [1, 8] to %[[P]]#1 size [1, 8]
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:            %[[X:.+]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:            %[[Y:.+]] = ktdf.read_from_fifo %[[P]]#1 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:            %[[EMPTY:.+]] = tensor.empty() : tensor<1x8xf16>
// CHECK-NEXT:            %[[SUM:.+]] = linalg.generic {indexing_maps = [[[ID]], [[ID]], [[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]] : tensor<1x8xf16>, tensor<1x8xf16>) outs(%[[EMPTY]] : tensor<1x8xf16>) {
// CHECK-NEXT:            ^bb0(%[[L:.+]]: f16, %[[R:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:              %[[ADD:.+]] = arith.addf %[[L]], %[[R]] : f16
// CHECK-NEXT:              linalg.yield %[[ADD]] : f16
// CHECK-NEXT:            } -> tensor<1x8xf16>
// CHECK-NEXT:            ktdf.write_to_fifo %[[SUM]], %[[P]]#2 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
// CHECK-NEXT:          } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#2 size [1, 8] to %[[C]][%[[I]], %[[J]]] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    return
// CHECK-NOT:     ktdp.load
// CHECK-NOT:     ktdp.store

// SPYRE:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// SPYRE-NEXT:      scf.for %[[J:.+]] = %[[ZERO:.+]] to %[[SIXTY_FOUR:.+]] step %[[SIXTY_FOUR]] {
// SPYRE:             ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// SPYRE:             ktdf.data_transfer from %{{.+}}[%[[I]], %[[J]]] size [1, 64] to %{{.+}}#0 size [1, 64]
// SPYRE:             ktdf.read_from_fifo %{{.+}}#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// SPYRE:             } {applicable_units = ["SFU"]}
// SPYRE:             ktdf.data_transfer from %{{.+}}#2 size [1, 64] to %{{.+}}[%[[I]], %[[J]]] size [1, 64]
