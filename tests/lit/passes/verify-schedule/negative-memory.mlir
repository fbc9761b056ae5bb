// A memref a transfer moves must say which memory of the device it lives in: a
// memref without a memory space, in a space that names an engine, or in a KTIR
// space the device does not map is rejected; KTIR's global and ct_local map onto
// the device's memories (DDR and L1 on toy).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p verify-schedule

func.func @no_space(%a: memref<64xf16>, %l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' moves memref<64xf16>, which has no memory space: its memory is unknown}}
      ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16>, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
  }
  return
}

// -----

func.func @engine_space(%a: memref<64xf16, "DDR">, %sfu: memref<64xf16, "SFU">) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' moves memref<64xf16, "SFU">, but "SFU" is no memory of device @toy}}
      ktdf.data_transfer from %a[0] size [64] to %sfu[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "SFU">
    } {applicable_units = ["MNILU"]}
  }
  return
}

// -----

func.func @ktir_spaces(%a: memref<64xf16, #ktdp.memory_space<global>>, %l1: memref<64xf16, #ktdp.memory_space<ct_local>>) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16, #ktdp.memory_space<global>>, memref<64xf16, #ktdp.memory_space<ct_local>>
    } {applicable_units = ["MNILU"]}
  }
  return
}

// -----

func.func @unmapped_space(%a: memref<64xf16, #ktdp.spyre_memory_space<unspecified>>, %l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' uses #ktdp.spyre_memory_space<unspecified>, which names no memory of device @toy}}
      ktdf.data_transfer from %a[0] size [64] to %l1[0] size [64] : memref<64xf16, #ktdp.spyre_memory_space<unspecified>>, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
  }
  return
}
