// A chain on tiles, as tile-to-simd-width leaves the add of IBM's basic test on toy:
// in a nest of parallel loops over the 3 rows and 8 blocks of 8 columns, tiles of
// A and B are loaded, added, and stored to C's tile. The pass puts a three-stage
// pipeline after the store: a ktdf.private with a FIFO slot per tile (one
// fifo.allocate per pair of ends, "DDR" -> "SFU" and back) and a token per stage; a
// load stage moving each operand tile from its view, at the tile's start, into its
// slot; a compute stage on the compute engine reading the slots, running the add
// and writing the result slot; a store stage moving it to C. The loads, the store
// and their tiles are gone. A splat stored with nothing loaded gets a pipeline of
// two stages, compute and store.

// RUN: ktc-opt %s --arch toy -p construct-three-stage-pipeline | filecheck %s

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#eight = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%A: memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, %B: memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, %C: memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      scf.for %i = %c0 to %c3 step %c1 {
        scf.for %j = %c0 to %c64 step %c8 {
          %a_tile = ktdp.construct_access_tile %A[%i, %j] {access_tile_set = #row, access_tile_order = #id2} : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR"> -> !ktdp.access_tile<1x8xindex>
          %a = ktdp.load %a_tile : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
          %b_tile = ktdp.construct_access_tile %B[%i, %j] {access_tile_set = #row, access_tile_order = #id2} : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR"> -> !ktdp.access_tile<1x8xindex>
          %b = ktdp.load %b_tile : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
          %empty = tensor.empty() : tensor<1x8xf16>
          %sum = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x8xf16>, tensor<1x8xf16>) outs(%empty : tensor<1x8xf16>) {
          ^bb0(%x: f16, %y: f16, %out: f16):
            %add = arith.addf %x, %y : f16
            linalg.yield %add : f16
          } -> tensor<1x8xf16>
          %c_tile = ktdp.construct_access_tile %C[%i, %j] {access_tile_set = #row, access_tile_order = #id2} : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR"> -> !ktdp.access_tile<1x8xindex>
          ktdp.store %sum, %c_tile : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%Y: memref<8xf16, "L1">, %value: f16) {
      %y_tile = ktdp.construct_access_tile %Y[0] {access_tile_set = #eight, access_tile_order = #id1} : memref<8xf16, "L1"> -> !ktdp.access_tile<8xindex>
      %empty = tensor.empty() : tensor<8xf16>
      %fill = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%empty : tensor<8xf16>) {
      ^bb0(%out: f16):
        linalg.yield %value : f16
      } -> tensor<8xf16>
      ktdp.store %fill, %y_tile : tensor<8xf16>, !ktdp.access_tile<8xindex>
      func.return
    }
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[I:.+]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.+]] = %c0 to %c64 step %c8 {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          %[[P:.+]]:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:            %[[IN:.+]]:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// CHECK-NEXT:            %[[OUT:.+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
// CHECK-COUNT-3:         ktdf.create_token
// CHECK-NEXT:            ktdf.private_yield %[[IN]]#0, %[[IN]]#1, %[[OUT]],
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:            ktdf.data_transfer from %A[%[[I]], %[[J]]] size [1, 8] to %[[P]]#0 size [1, 8] : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// CHECK-NEXT:            ktdf.data_transfer from %B[%[[I]], %[[J]]] size [1, 8] to %[[P]]#1 size [1, 8]
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:            %[[A:.+]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:            %[[B:.+]] = ktdf.read_from_fifo %[[P]]#1 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:            %[[EMPTY:.+]] = tensor.empty() : tensor<1x8xf16>
// CHECK-NEXT:            %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<1x8xf16>, tensor<1x8xf16>) outs(%[[EMPTY]] : tensor<1x8xf16>) {
// CHECK:                 } -> tensor<1x8xf16>
// CHECK-NEXT:            ktdf.write_to_fifo %[[SUM]], %[[P]]#2 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
// CHECK-NEXT:          } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#2 size [1, 8] to %C[%[[I]], %[[J]]] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @local_schedule_1(
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      %[[P:.+]]:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, !ktdf.token, !ktdf.token) {
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#1) {
// CHECK-NEXT:        %[[EMPTY:.+]] = tensor.empty() : tensor<8xf16>
// CHECK-NEXT:        %[[FILL:.+]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<8xf16>) {
// CHECK:             ktdf.write_to_fifo %[[FILL]], %[[P]]#0
// CHECK-NEXT:      } {applicable_units = ["SFU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#1) depends_out(%[[P]]#2) {
// CHECK-NEXT:        ktdf.data_transfer from %[[P]]#0 size [8] to %Y[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, memref<8xf16, "L1">
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:     ktdp.
