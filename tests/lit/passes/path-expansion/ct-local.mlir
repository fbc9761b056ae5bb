// An operand already in the scratchpad (ct_local) starts its path there: it needs
// no DMA stage, and its transfer joins the load unit stage of the operand that
// does come from DDR. The result goes to the scratchpad as well, so no DMA stage
// follows the store unit. Memory spaces may be written as device memory kinds or
// as KTIR memory spaces, which the device maps to its kinds.

// RUN: ktc-opt %s --split-input-file --arch toy -p path-expansion | filecheck %s
// RUN: ktc-opt %s --split-input-file --arch spyre -p path-expansion | filecheck %s

func.func @ct_local(%A: memref<4x8xf16, "DDR">, %B: memref<4x8xf16, "L1">, %C: memref<4x8xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      %b = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %a, %b, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [1, 8] : memref<4x8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      ktdf.data_transfer from %B[%i, 0] size [1, 8] to %p#1 size [1, 8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = ktdf.read_from_fifo %p#1 : <"L1" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %z = arith.mulf %x, %y : tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x8xf16>, <"SFU" -> "L1", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#2 size [1, 8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, memref<4x8xf16, "L1">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @ct_local(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: memref<4x8xf16, "DDR">, %[[B:[a-zA-Z0-9_]+]]: memref<4x8xf16, "L1">, %[[C:[a-zA-Z0-9_]+]]: memref<4x8xf16, "L1">, %[[I:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:8 = ktdf.private -> (memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:      memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:      ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:      ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
// CHECK-NOT:       memref.alloc
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:      ktdf.data_transfer from %[[A]][%[[I]], 0] size [1, 8] to %[[P]]#0[0, 0] size [1, 8] : memref<4x8xf16, "DDR">, memref<1x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 8] to %[[P]]#1 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[B]][%[[I]], 0] size [1, 8] to %[[P]]#2 size [1, 8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      ktdf.write_to_fifo %{{.+}}, %[[P]]#3 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3 size [1, 8] to %[[C]][%[[I]], 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["L1SU"]}
// CHECK-NEXT:  }

// -----

func.func @ktir_spaces(%A: memref<4x8xf16, #ktdp.memory_space<global>>, %B: memref<4x8xf16, #ktdp.memory_space<ct_local>>, %C: memref<4x8xf16, #ktdp.memory_space<ct_local>>, %i: index) {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xf16>, !ktdf.fifo.slot<#ktdp.memory_space<ct_local> -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> #ktdp.memory_space<ct_local>, 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a = ktdf.fifo.allocate() : !ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xf16>
      %b = ktdf.fifo.allocate() : !ktdf.fifo.slot<#ktdp.memory_space<ct_local> -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> #ktdp.memory_space<ct_local>, 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %a, %b, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xf16>, !ktdf.fifo.slot<#ktdp.memory_space<ct_local> -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> #ktdp.memory_space<ct_local>, 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [1, 8] : memref<4x8xf16, #ktdp.memory_space<global>>, !ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xf16>
      ktdf.data_transfer from %B[%i, 0] size [1, 8] to %p#1 size [1, 8] : memref<4x8xf16, #ktdp.memory_space<ct_local>>, !ktdf.fifo.slot<#ktdp.memory_space<ct_local> -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %x = ktdf.read_from_fifo %p#0 : <#ktdp.memory_space<global> -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = ktdf.read_from_fifo %p#1 : <#ktdp.memory_space<ct_local> -> "SFU", 8xf16> -> tensor<1x8xf16>
      %z = arith.mulf %x, %y : tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x8xf16>, <"SFU" -> #ktdp.memory_space<ct_local>, 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#2 size [1, 8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> #ktdp.memory_space<ct_local>, 8xf16>, memref<4x8xf16, #ktdp.memory_space<ct_local>>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @ktir_spaces(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: memref<4x8xf16, #ktdp.memory_space<global>>, %[[B:[a-zA-Z0-9_]+]]: memref<4x8xf16, #ktdp.memory_space<ct_local>>, %[[C:[a-zA-Z0-9_]+]]: memref<4x8xf16, #ktdp.memory_space<ct_local>>, %[[I:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:8 = ktdf.private -> (memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:      memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:      ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:      ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
// CHECK-NOT:       memref.alloc
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:      ktdf.data_transfer from %[[A]][%[[I]], 0] size [1, 8] to %[[P]]#0[0, 0] size [1, 8] : memref<4x8xf16, #ktdp.memory_space<global>>, memref<1x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 8] to %[[P]]#1 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[B]][%[[I]], 0] size [1, 8] to %[[P]]#2 size [1, 8] : memref<4x8xf16, #ktdp.memory_space<ct_local>>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      ktdf.write_to_fifo %{{.+}}, %[[P]]#3 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3 size [1, 8] to %[[C]][%[[I]], 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<4x8xf16, #ktdp.memory_space<ct_local>>
// CHECK-NEXT:    } {applicable_units = ["L1SU"]}
// CHECK-NEXT:  }
