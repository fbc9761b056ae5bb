// A copy between cores on a device without an interconnect is rejected at the copy.

// RUN: ktc-opt %s --verify-diagnostics --arch %S/../../arch/Inputs/untimed.mlir -p verify-schedule

func.func @copy(%received: memref<2x8xf16, "L1">) attributes {grid = [1]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' copies between cores, but device @untimed has no interconnect}}
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
    } {applicable_units = ["DMA"]}
  }
  return
}
