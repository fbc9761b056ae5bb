// Running path expansion on its own output changes nothing: the expanded pipeline
// is legal, so a second run finds every transfer between neighbours and every
// stage labelled.

// RUN: ktc-opt %s --arch toy -p path-expansion > %t.once
// RUN: ktc-opt %s --arch toy -p path-expansion,path-expansion > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.twice

func.func @mixed(%A: memref<4x8xf16, "DDR">, %B: memref<4x8xf16, "L1">, %C: memref<4x8xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      %b = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %a, %b, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      ktdf.data_transfer from %B[%i, 0] size [1, 8] to %p#1 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<8xf16>
      %y = ktdf.read_from_fifo %p#1 : <"L1" -> "SFU", 8xf16> -> tensor<8xf16>
      %z = arith.subf %x, %y : tensor<8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#2 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<4x8xf16, "DDR">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @mixed(
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK:         } {applicable_units = ["MNISU"]}
// CHECK-NOT:     ktdf.stage
