// Tiles whose size is only known at run time still get staged: the scratchpad
// buffers path expansion adds take their dynamic extent from the transfer
// (memref.alloc(%n)), and the retyped FIFOs keep their dynamic slot size.

// RUN: ktc-opt %s --arch toy -p path-expansion | filecheck %s

func.func @dynamic(%A: memref<?xf16, "DDR">, %C: memref<?xf16, "DDR">, %n: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", ?xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", ?xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate(%n) : !ktdf.fifo.slot<"DDR" -> "SFU", ?xf16>
      %out = ktdf.fifo.allocate(%n) : !ktdf.fifo.slot<"SFU" -> "DDR", ?xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", ?xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", ?xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %A[0] size [%n] to %p#0 size [%n] : memref<?xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", ?xf16>
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", ?xf16> -> tensor<?xf16>
      %y = math.exp %x : tensor<?xf16>
      ktdf.write_to_fifo %y, %p#1 : tensor<?xf16>, <"SFU" -> "DDR", ?xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [%n] to %C[0] size [%n] : !ktdf.fifo.slot<"SFU" -> "DDR", ?xf16>, memref<?xf16, "DDR">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:9 = ktdf.private -> (memref<?xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf16>, memref<?xf16, "L1">,
// CHECK-NEXT:      memref.alloc(%[[N]]) : memref<?xf16, "L1">
// CHECK-NEXT:      ktdf.fifo.allocate(%[[N]]) : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
// CHECK-NEXT:      ktdf.fifo.allocate(%[[N]]) : !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf16>
// CHECK-NEXT:      memref.alloc(%[[N]]) : memref<?xf16, "L1">
// CHECK:         ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[0] size [%[[N]]] to %[[P]]#0[0] size [%[[N]]] : memref<?xf16, "DDR">, memref<?xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK:         ktdf.data_transfer from %[[P]]#0[0] size [%[[N]]] to %[[P]]#1 size [%[[N]]] : memref<?xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK:         ktdf.data_transfer from %[[P]]#2 size [%[[N]]] to %[[P]]#3[0] size [%[[N]]] : !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf16>, memref<?xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["L1SU"]}
// CHECK:         ktdf.data_transfer from %[[P]]#3[0] size [%[[N]]] to %{{[a-zA-Z0-9_]+}}[0] size [%[[N]]] : memref<?xf16, "L1">, memref<?xf16, "DDR">
// CHECK-NEXT:    } {applicable_units = ["MNISU"]}
