// Labels must agree with the device: a transfer stage that names an engine other
// than the one on its piece of path fails, and so does a stage that reads a FIFO
// whose far end is an engine it does not run on.

// RUN: ktc-opt %s --split-input-file --arch toy -p path-expansion --verify-diagnostics

func.func @wrong_transfer_engine(%A: memref<4x8xf16, "L1">, %C: memref<4x8xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    // expected-error@+1 {{'ktdf.stage' names ["MNILU"] in applicable_units, but "L1LU" runs its transfer}}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  func.return
}

// -----

func.func @reader_elsewhere(%A: memref<4x8xf16, "DDR">, %C: memref<4x8xf16, "DDR">, %i: index) {
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
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      // expected-error@+1 {{'ktdf.read_from_fifo' uses a FIFO whose far end is "SFU", but its stage runs on ["L1SU"]}}
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<4x8xf16, "DDR">
    }
  }
  func.return
}
