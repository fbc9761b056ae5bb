// A transfer whose memory has no path to the engine it feeds fails, naming both
// ends: on the device of Inputs/island.mlir nothing links the "ROM" memory to
// anything, so the SFU cannot be reached from it.

// RUN: ktc-opt %s --arch %S/Inputs/island.mlir -p path-expansion --verify-diagnostics

func.func @from_rom(%A: memref<4x8xf16, "ROM">, %C: memref<4x8xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"ROM" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"ROM" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"ROM" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-error@+1 {{'ktdf.data_transfer': no path on device @island from "ROM" to "SFU"}}
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "ROM">, !ktdf.fifo.slot<"ROM" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"ROM" -> "SFU", 8xf16> -> tensor<1x8xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<4x8xf16, "DDR">
    }
  }
  func.return
}
