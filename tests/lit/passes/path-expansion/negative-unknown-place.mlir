// Every end of a transfer must sit somewhere on the device: a memref needs a
// memory space the device knows (a memory kind or a KTIR space it maps), and the
// far end of a FIFO must be an execution unit.

// RUN: ktc-opt %s --split-input-file --arch toy -p path-expansion --verify-diagnostics

func.func @unknown_memory(%A: memref<4x8xf16, "HBM">, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "SFU", 8xf16>, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"HBM" -> "SFU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %in, %t0, %t1 : !ktdf.fifo.slot<"HBM" -> "SFU", 8xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error@+1 {{'ktdf.data_transfer': device @toy has no memory "HBM"}}
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "HBM">, !ktdf.fifo.slot<"HBM" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      %x = ktdf.read_from_fifo %p#0 : <"HBM" -> "SFU", 8xf16> -> tensor<1x8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @no_memory_space(%A: memref<4x8xf16>, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %in, %t0, %t1 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error@+1 {{'ktdf.data_transfer': memref memref<4x8xf16> names no memory space}}
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @fifo_into_memory(%A: memref<4x8xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "L1", 8xf16>, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "L1", 8xf16>
      %t0 = ktdf.create_token
      ktdf.private_yield %in, %t0 : !ktdf.fifo.slot<"DDR" -> "L1", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error@+1 {{'ktdf.data_transfer': FIFO end "L1" is not an execution unit of device @toy}}
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "L1", 8xf16>
    } {applicable_units = ["MNILU"]}
  }
  func.return
}
