// A legal pipeline between the scratchpad and the SFU whose transfer stages do not
// name their engines yet: path expansion keeps its form (same resources, same
// three stages) and labels the load stage with the load unit and the store stage
// with the store unit, so that every stage names the engine that runs it.

// RUN: ktc-opt %s --arch toy -p path-expansion | filecheck %s

func.func @unlabelled(%A: memref<4x8xf16, "L1">, %C: memref<4x8xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = math.exp %x : tensor<1x8xf16>
      ktdf.write_to_fifo %y, %p#1 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, "L1">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @unlabelled(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: memref<4x8xf16, "L1">, %[[C:[a-zA-Z0-9_]+]]: memref<4x8xf16, "L1">, %[[I:[a-zA-Z0-9_]+]]: index)
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      %[[P:[a-zA-Z0-9_]+]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:           ktdf.private_yield
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:        ktdf.data_transfer from %[[A]][%[[I]], 0] size [1, 8] to %[[P]]#0 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:      } {applicable_units = ["L1LU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK:           } {applicable_units = ["SFU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:        ktdf.data_transfer from %[[P]]#1 size [8] to %[[C]][%[[I]], 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, "L1">
// CHECK-NEXT:      } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    }
