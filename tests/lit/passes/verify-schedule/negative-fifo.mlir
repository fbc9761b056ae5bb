// A FIFO joins neighbours, and only its ends use it. The three-stage form before
// path expansion (a FIFO from device memory straight to the SIMD engine) fails, as
// do FIFOs between units no datapath joins or naming what the device lacks, and a
// stage that reads or writes a FIFO at the other engine's end.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p verify-schedule
// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch spyre -p verify-schedule

func.func @three_stage(%a: memref<1x64xf16, "DDR">) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token) {
      // expected-error@+1 {{'ktdf.fifo.allocate' makes a FIFO from "DDR" to "SFU", which are not neighbours on device}}
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
      %t = ktdf.create_token
      ktdf.private_yield %slot, %t : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[0, 0] size [1, 64] to %p#0 size [64] : memref<1x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
    }
  }
  return
}

// -----

func.func @not_neighbours() {
  ktdf.pipeline {
    %p = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "L1SU", 64xf16>) {
      // expected-error@+1 {{'ktdf.fifo.allocate' makes a FIFO from "L1LU" to "L1SU", which are not neighbours on device}}
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "L1SU", 64xf16>
      ktdf.private_yield %slot : !ktdf.fifo.slot<"L1LU" -> "L1SU", 64xf16>
    }
  }
  return
}

// -----

func.func @unknown_end() {
  ktdf.pipeline {
    %p = ktdf.private -> (!ktdf.fifo.slot<"VPU" -> "SFU", 64xf16>) {
      // expected-error@+1 {{'ktdf.fifo.allocate' has a FIFO end "VPU", which is no execution unit or memory of device}}
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"VPU" -> "SFU", 64xf16>
      ktdf.private_yield %slot : !ktdf.fifo.slot<"VPU" -> "SFU", 64xf16>
    }
  }
  return
}

// -----

func.func @wrong_reader() {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>) {
      %slots:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      ktdf.private_yield %slots#0, %slots#1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    }
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.read_from_fifo' run by SFU reads the FIFO "SFU" -> "L1SU", which only L1SU reads}}
      %x = ktdf.read_from_fifo %p#0 : <"SFU" -> "L1SU", 64xf16> -> tensor<64xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

func.func @wrong_writer(%l1: memref<64xf16, "L1">) {
  ktdf.pipeline {
    %p = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>) {
      %slot = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      ktdf.private_yield %slot : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    }
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' run by L1LU writes the FIFO "SFU" -> "L1SU", which only SFU writes}}
      ktdf.data_transfer from %l1[0] size [64] to %p size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["L1LU"]}
  }
  return
}
