// Every stage needs an engine: applicable_units must be present and name only
// execution units of the device (not a memory, not a unit of another chip), and a
// transfer must sit inside a stage.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p verify-schedule
// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch spyre -p verify-schedule

func.func @no_engine(%a: memref<64xf16, "DDR">, %l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    // expected-error@+1 {{'ktdf.stage' has no applicable_units: no engine is assigned to run it}}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    }
  }
  return
}

// -----

func.func @foreign_engine(%a: memref<64xf16, "DDR">, %l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    // expected-error@+1 {{'ktdf.stage' names "DMA" in applicable_units, which is no execution unit of device}}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["DMA"]}
  }
  return
}

// -----

func.func @memory_as_engine(%a: memref<64xf16, "DDR">, %l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    // expected-error@+1 {{'ktdf.stage' names "L1" in applicable_units, which is no execution unit of device}}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["MNILU", "L1"]}
  }
  return
}

// -----

func.func @outside(%a: memref<64xf16, "DDR">, %l1: memref<64xf16, "L1">) {
  // expected-error@+1 {{'ktdf.data_transfer' is outside any ktdf.stage, so no engine runs it}}
  ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
  return
}
