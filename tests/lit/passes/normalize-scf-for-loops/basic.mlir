// The tile loops of a three-stage pipeline count from 0 in steps of 1 after
// normalization: the vector loop that stepped by 8 runs 8 times, and the column
// it addressed is recomputed as j * 8 just before the transfers that use it. The
// loop that was already normalized is left as it was, attributes stay, and the
// new bounds are computed above the nest, which stays perfect.

// RUN: ktc-opt %s -p normalize-scf-for-loops | filecheck %s
// RUN: %if mlir %{ ktc-opt %s -p normalize-scf-for-loops --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s --check-prefix=MLIR %}

func.func @local_schedule_0(%A: memref<3x64xf16, "DDR">, %C: memref<3x64xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c64 step %c8 {
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
          ktdf.data_transfer from %A[%i, %j] size [1, 8] to %p#0 size [1, 8] : memref<3x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
          ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [1, 8] to %C[%i, %j] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<3x64xf16, "DDR">
        }
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      %[[A:[^:]+]]: memref<3x64xf16, "DDR">, %[[C:[^:]+]]: memref<3x64xf16, "DDR">)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[TRIPS:.+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.+]] = %[[ZERO]] to %[[TRIPS]] step %[[ONE]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:             ktdf.stage depends_in(none)
// CHECK-NEXT:          %[[COL:.+]] = arith.muli %[[J]], %[[C8]] : index
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][%[[I]], %[[COL]]] size [1, 8]
// CHECK:             } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf.stage
// CHECK-NEXT:          %[[COL2:.+]] = arith.muli %[[J]], %[[C8]] : index
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} size [1, 8] to %[[C]][%[[I]], %[[COL2]]] size [1, 8]
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}

// Real MLIR accepts the result.
// MLIR-LABEL: func.func @local_schedule_0(
// MLIR:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// MLIR-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// MLIR:             arith.muli %[[J]], %{{.+}} : index
