// The same pass on a chip shaped unlike Spyre (tests/lit/arch/Inputs/line4.mlir):
// one DMA engine moves both ways between HBM and the scratchpad (SPM), and the
// vector unit (VPU) reads and writes the scratchpad itself through queues, with no
// load or store unit between. The SPM -> VPU and VPU -> SPM hops are therefore run
// by the VPU, and the FIFOs join the scratchpad and the VPU. An operand already in
// the scratchpad needs no DMA.

// RUN: ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p path-expansion | filecheck %s

func.func @add(%A: memref<4x32xf16, "HBM">, %B: memref<4x32xf16, "SPM">, %C: memref<4x32xf16, "HBM">, %i: index) {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a = ktdf.fifo.allocate() : !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
      %b = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %a, %b, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 32] to %p#0 size [32] : memref<4x32xf16, "HBM">, !ktdf.fifo.slot<"HBM" -> "VPU", 32xf16>
      ktdf.data_transfer from %B[%i, 0] size [1, 32] to %p#1 size [32] : memref<4x32xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %x = ktdf.read_from_fifo %p#0 : <"HBM" -> "VPU", 32xf16> -> tensor<1x32xf16>
      %y = ktdf.read_from_fifo %p#1 : <"SPM" -> "VPU", 32xf16> -> tensor<1x32xf16>
      %z = arith.addf %x, %y : tensor<1x32xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x32xf16>, <"VPU" -> "HBM", 32xf16>
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#2 size [32] to %C[%i, 0] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "HBM", 32xf16>, memref<4x32xf16, "HBM">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @add(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: memref<4x32xf16, "HBM">, %[[B:[a-zA-Z0-9_]+]]: memref<4x32xf16, "SPM">, %[[C:[a-zA-Z0-9_]+]]: memref<4x32xf16, "HBM">, %[[I:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:10 = ktdf.private -> (memref<1x32xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>, memref<1x32xf16, "SPM">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %[[A]][%[[I]], 0] size [1, 32] to %[[P]]#0[0, 0] size [1, 32] : memref<4x32xf16, "HBM">, memref<1x32xf16, "SPM">
// CHECK-NEXT:    } {applicable_units = ["DMA"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 32] to %[[P]]#1 size [32] : memref<1x32xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[B]][%[[I]], 0] size [1, 32] to %[[P]]#2 size [32] : memref<4x32xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#1 : <"SPM" -> "VPU", 32xf16> -> tensor<1x32xf16>
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#2 : <"SPM" -> "VPU", 32xf16> -> tensor<1x32xf16>
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      ktdf.write_to_fifo %{{.+}}, %[[P]]#3 : tensor<1x32xf16>, <"VPU" -> "SPM", 32xf16>
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3 size [32] to %[[P]]#4[0, 0] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>, memref<1x32xf16, "SPM">
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#8) depends_out(%[[P]]#9) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#4[0, 0] size [1, 32] to %[[C]][%[[I]], 0] size [1, 32] : memref<1x32xf16, "SPM">, memref<4x32xf16, "HBM">
// CHECK-NEXT:    } {applicable_units = ["DMA"]}
// CHECK-NEXT:  }

// -----

// All in the scratchpad: three stages, each on the VPU, and no buffer added.
func.func @local(%A: memref<4x32xf16, #ktdp.memory_space<ct_local>>, %C: memref<4x32xf16, #ktdp.memory_space<ct_local>>, %i: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %A[%i, 0] size [1, 32] to %p#0 size [32] : memref<4x32xf16, #ktdp.memory_space<ct_local>>, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"SPM" -> "VPU", 32xf16> -> tensor<1x32xf16>
      %y = math.exp %x : tensor<1x32xf16>
      ktdf.write_to_fifo %y, %p#1 : tensor<1x32xf16>, <"VPU" -> "SPM", 32xf16>
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [32] to %C[%i, 0] size [1, 32] : !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>, memref<4x32xf16, #ktdp.memory_space<ct_local>>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @local(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "SPM", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NOT:       memref.alloc
// CHECK:           ktdf.private_yield
// CHECK:         ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, 0] size [1, 32] to %{{.+}}#0 size [32]
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK:         } {applicable_units = ["VPU"]}
// CHECK:         ktdf.data_transfer from %{{.+}}#1 size [32] to
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK-NEXT:  }
