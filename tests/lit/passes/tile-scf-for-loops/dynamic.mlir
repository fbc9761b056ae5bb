// The pipeline's mode (no tile-sizes): the normalized tile loops around a
// three-stage pipeline form one 2-deep parallel nest, so each loop gets a
// ktdf.tiling.reserve_size {min_value = 1, divisibility = 1} placeholder before
// the nest and is tiled by it; the pipeline moves into the point loops and
// addresses rows and columns through linearize_index.

// RUN: ktc-opt %s -p tile-scf-for-loops | filecheck %s

func.func @local_schedule_0(%A: memref<3x64xf16, "DDR">, %C: memref<3x64xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
          %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
          %t0 = ktdf.create_token
          %t1 = ktdf.create_token
          %t2 = ktdf.create_token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          %col = arith.muli %j, %c8 : index
          ktdf.data_transfer from %A[%i, %col] size [1, 8] to %p#0 size [1, 8] : memref<3x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
          ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %col = arith.muli %j, %c8 : index
          ktdf.data_transfer from %p#1 size [1, 8] to %C[%i, %col] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<3x64xf16, "DDR">
        }
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      %[[A:[^:]+]]: memref<3x64xf16, "DDR">, %[[C:[^:]+]]: memref<3x64xf16, "DDR">)
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[TSI:.+]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[TSJ:.+]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[NI:.+]] = arith.ceildivui %[[C3]], %[[TSI]] : index
// CHECK-NEXT:    %[[NJ:.+]] = arith.ceildivui %[[C8]], %[[TSJ]] : index
// CHECK-NEXT:    scf.for %[[TI:.+]] = %[[C0]] to %[[NI]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[TJ:.+]] = %[[C0]] to %[[NJ]] step %[[C1]] {
// CHECK-NEXT:        %[[SI:.+]] = ktdf.tiling.derive_size [%[[TI]] : %[[TSI]]], total_size = %[[C3]] : index
// CHECK-NEXT:        %[[SJ:.+]] = ktdf.tiling.derive_size [%[[TJ]] : %[[TSJ]]], total_size = %[[C8]] : index
// CHECK-NEXT:        scf.for %[[PI:.+]] = %[[C0]] to %[[SI]] step %[[C1]] {
// CHECK-NEXT:          scf.for %[[PJ:.+]] = %[[C0]] to %[[SJ]] step %[[C1]] {
// CHECK-NEXT:            %[[I:.+]] = ktdf.tiling.linearize_index [%[[TI]] : %[[TSI]]], [%[[PI]] : %[[C1]]] : index
// CHECK-NEXT:            %[[J:.+]] = ktdf.tiling.linearize_index [%[[TJ]] : %[[TSJ]]], [%[[PJ]] : %[[C1]]] : index
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   ktdf.stage depends_in(none)
// CHECK-NEXT:                %[[COL:.+]] = arith.muli %[[J]], %[[C8]] : index
// CHECK-NEXT:                ktdf.data_transfer from %[[A]][%[[I]], %[[COL]]] size [1, 8]
// CHECK:                   } {applicable_units = ["SFU"]}
// CHECK-NEXT:              ktdf.stage
// CHECK-NEXT:                %[[COL2:.+]] = arith.muli %[[J]], %[[C8]] : index
// CHECK-NEXT:                ktdf.data_transfer from %{{.+}} size [1, 8] to %[[C]][%[[I]], %[[COL2]]] size [1, 8]
// CHECK:                 } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:          } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:        } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      return
