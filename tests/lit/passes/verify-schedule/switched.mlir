// Units joined through the ports of a switch are neighbours, in the directions the
// switch connects: a FIFO from the load unit to the SIMD engine across a one-way
// switch passes, one back the other way does not.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch %S/Inputs/switched.mlir -p verify-schedule

func.func @across_switch(%l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!ktdf.fifo.slot<"LU" -> "SIMD", 8xf16>, !ktdf.token) {
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"LU" -> "SIMD", 8xf16>
      %t = ktdf.create_token
      ktdf.private_yield %slot, %t : !ktdf.fifo.slot<"LU" -> "SIMD", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %l1[0] size [8] to %p#0 size [8] : memref<64xf16, "L1">, !ktdf.fifo.slot<"LU" -> "SIMD", 8xf16>
    } {applicable_units = ["LU"]}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %v = ktdf.read_from_fifo %p#0 : <"LU" -> "SIMD", 8xf16> -> tensor<8xf16>
    } {applicable_units = ["SIMD"]}
  }
  return
}

// -----

func.func @back_across_switch() {
  ktdf.pipeline {
    %p = ktdf.private -> (!ktdf.fifo.slot<"SIMD" -> "LU", 8xf16>) {
      // expected-error@+1 {{'ktdf.fifo.allocate' makes a FIFO from "SIMD" to "LU", which are not neighbours on device @switched (no datapath SIMD -> LU)}}
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SIMD" -> "LU", 8xf16>
      ktdf.private_yield %slot : !ktdf.fifo.slot<"SIMD" -> "LU", 8xf16>
    }
  }
  return
}
