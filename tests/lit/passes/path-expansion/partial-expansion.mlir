// A pipeline whose load side is already staged in the scratchpad (DMA into an L1
// buffer, then L1 into the SFU's FIFO) while its store side still goes from the
// SFU straight to DDR: only the store side is expanded, into a store unit stage
// and a DMA stage; the load side keeps its buffer and stages.

// RUN: ktc-opt %s --arch toy -p path-expansion | filecheck %s

func.func @partial(%A: memref<4x8xf16, "DDR">, %C: memref<4x8xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:7 = ktdf.private -> (memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a_l1 = memref.alloc() : memref<1x8xf16, "L1">
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      ktdf.private_yield %a_l1, %in, %out, %t0, %t1, %t2, %t3 : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0[0, 0] size [1, 8] : memref<4x8xf16, "DDR">, memref<1x8xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#0[0, 0] size [1, 8] to %p#1 size [8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      %x = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = math.exp %x : tensor<1x8xf16>
      ktdf.write_to_fifo %y, %p#2 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#5) depends_out(%p#6) {
      ktdf.data_transfer from %p#2 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<4x8xf16, "DDR">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @partial(
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:9 = ktdf.private -> (memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:      %[[A_L1:[a-zA-Z0-9_]+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:      %[[IN:[a-zA-Z0-9_]+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:      %[[OUT:[a-zA-Z0-9_]+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
// CHECK-NEXT:      %[[C_L1:[a-zA-Z0-9_]+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK:           ktdf.private_yield %[[A_L1]], %[[IN]], %[[OUT]], %[[C_L1]],
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:      ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[%[[I:[a-zA-Z0-9_]+]], 0] size [1, 8] to %[[P]]#0[0, 0] size [1, 8] : memref<4x8xf16, "DDR">, memref<1x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 8] to %[[P]]#1 size [8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      ktdf.write_to_fifo %{{.+}}, %[[P]]#2 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#2 size [8] to %[[P]]#3[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3[0, 0] size [1, 8] to %{{[a-zA-Z0-9_]+}}[%[[I]], 0] size [1, 8] : memref<1x8xf16, "L1">, memref<4x8xf16, "DDR">
// CHECK-NEXT:    } {applicable_units = ["MNISU"]}
// CHECK-NEXT:  }
