// Path expansion routes from the engines the pipeline names: a pipeline where no
// stage names its engine in applicable_units has no anchor and fails, and so does
// a stage that computes (does more than move data) without naming its engine.

// RUN: ktc-opt %s --split-input-file --arch toy -p path-expansion --verify-diagnostics

func.func @no_anchor(%A: memref<4x8xf16, "DDR">, %C: memref<4x8xf16, "DDR">, %i: index) {
  // expected-error@+1 {{'ktdf.pipeline' has no anchor: no stage names the engine that runs it in applicable_units}}
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
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<4x8xf16, "DDR">
    }
  }
  func.return
}

// -----

func.func @unlabelled_compute(%A: memref<4x8xf16, "L1">, %C: memref<4x8xf16, "L1">, %i: index) {
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
    // expected-error@+1 {{'ktdf.stage' does more than move data but names no engine in applicable_units}}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  func.return
}
