// A transfer must follow datapaths of the device from and to the engine that runs
// it: a scratchpad load unit cannot read device memory, a DMA engine cannot write
// the SIMD registers or send to device memory what only the store engine may.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p verify-schedule
// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch spyre -p verify-schedule

func.func @load_unit_reads_ddr(%a: memref<1x64xf16, "DDR">) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      %t = ktdf.create_token
      ktdf.private_yield %slot, %t : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error@+1 {{'ktdf.data_transfer' run by L1LU reads memory "DDR", but device}}
      ktdf.data_transfer from %a[0, 0] size [1, 64] to %p#0 size [64] : memref<1x64xf16, "DDR">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    } {applicable_units = ["L1LU"]}
  }
  return
}

// -----

func.func @dma_writes_registers(%a: memref<64xf16, "DDR">, %reg: memref<64xf16, "SFU_REG">) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' run by MNILU writes memory "SFU_REG", but device}}
      ktdf.data_transfer from %a[0] size [64] to %reg[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "SFU_REG">
    } {applicable_units = ["MNILU"]}
  }
  return
}

// -----

func.func @load_engine_stores(%l1: memref<64xf16, "L1">, %c: memref<64xf16, "DDR">) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' run by MNILU reads memory "L1", but device}}
      ktdf.data_transfer from %l1[0] size [64] to %c[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
    } {applicable_units = ["MNILU"]}
  }
  return
}
