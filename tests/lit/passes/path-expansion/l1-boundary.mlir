// A pipeline that is already legal: its operands and result live in the scratchpad
// (L1), the load unit fills the SFU's FIFO and the store unit drains it, and every
// stage names its engine. Path expansion leaves it exactly as it is.

// RUN: ktc-opt %s --arch toy > %t.before
// RUN: ktc-opt %s --arch toy -p path-expansion > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

func.func @l1_boundary(%A: memref<4x8xf16, "L1">, %C: memref<4x8xf16, "L1">, %i: index) {
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
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = math.exp %x : tensor<1x8xf16>
      ktdf.write_to_fifo %y, %p#1 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @l1_boundary(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-COUNT-3: ktdf.stage
// CHECK-NOT:     ktdf.stage
// CHECK-NOT:     memref.alloc
