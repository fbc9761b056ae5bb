// On the line4 test chip the vector unit reads and writes the scratchpad through
// queues of its own, with no load or store unit between: a FIFO that starts or
// ends at the scratchpad is filled or drained by the scratchpad's port, from or
// into a buffer there, in a stage the vector unit runs. Such a schedule passes; the
// toy device, which has none of these kinds, rejects it.

// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p verify-schedule | filecheck %s
// RUN: not ktc-opt %s --arch toy -p verify-schedule 2>&1 | filecheck %s --check-prefix=TOY

func.func @scale(%x: memref<256xf32, "HBM">, %y: memref<256xf32, "HBM">, %i: index) {
  ktdf.pipeline {
    %p:9 = ktdf.private -> (memref<32xf32, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>, !ktdf.fifo.slot<"VPU" -> "SPM", 32xf32>, memref<32xf32, "SPM">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in_spm = memref.alloc() : memref<32xf32, "SPM">
      %to_vpu = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>
      %from_vpu = ktdf.fifo.allocate() : !ktdf.fifo.slot<"VPU" -> "SPM", 32xf32>
      %out_spm = memref.alloc() : memref<32xf32, "SPM">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      %t4 = ktdf.create_token
      ktdf.private_yield %in_spm, %to_vpu, %from_vpu, %out_spm, %t0, %t1, %t2, %t3, %t4 : memref<32xf32, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>, !ktdf.fifo.slot<"VPU" -> "SPM", 32xf32>, memref<32xf32, "SPM">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#4) {
      ktdf.data_transfer from %x[%i] size [32] to %p#0[0] size [32] : memref<256xf32, "HBM">, memref<32xf32, "SPM">
    } {applicable_units = ["DMA"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#0[0] size [32] to %p#1 size [32] : memref<32xf32, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#5) depends_out(%p#6) {
      %v = ktdf.read_from_fifo %p#1 : <"SPM" -> "VPU", 32xf32> -> tensor<32xf32>
      %twice = arith.addf %v, %v : tensor<32xf32>
      ktdf.write_to_fifo %twice, %p#2 : tensor<32xf32>, <"VPU" -> "SPM", 32xf32>
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#6) depends_out(%p#7) {
      ktdf.data_transfer from %p#2 size [32] to %p#3[0] size [32] : !ktdf.fifo.slot<"VPU" -> "SPM", 32xf32>, memref<32xf32, "SPM">
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#7) depends_out(%p#8) {
      ktdf.data_transfer from %p#3[0] size [32] to %y[%i] size [32] : memref<32xf32, "SPM">, memref<256xf32, "HBM">
    } {applicable_units = ["DMA"]}
  }
  return
}

// CHECK-LABEL: func.func @scale(
// CHECK:         ktdf.data_transfer from %{{.*}} size [32] to %{{.*}} size [32] : memref<32xf32, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK:         } {applicable_units = ["DMA"]}

// TOY: error: 'ktdf.fifo.allocate' has a FIFO end "SPM", which is no execution unit or memory of device @toy
