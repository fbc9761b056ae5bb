// The staging buffers that path expansion puts in the scratchpad ("L1") are
// handed from one stage to a later one in every iteration of the vector loop:
// each gets two copies allocated before the loop, a select on the iteration's
// phase picks the copy inside it, and the pipeline rotates (modulo 2). The FIFO
// slots and tokens stay private. Spyre and the toy device agree.

// RUN: ktc-opt %s --arch toy -p double-buffering | filecheck %s
// RUN: ktc-opt %s --arch spyre -p double-buffering | filecheck %s

func.func @add(%A: memref<4x16xf16, "DDR">, %B: memref<4x16xf16, "DDR">, %C: memref<4x16xf16, "DDR">, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %j = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %p:11 = ktdf.private -> (memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %a = memref.alloc() : memref<1x8xf16, "L1">
        %b = memref.alloc() : memref<1x8xf16, "L1">
        %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
        %c = memref.alloc() : memref<1x8xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        %t2 = ktdf.create_token
        %t3 = ktdf.create_token
        %t4 = ktdf.create_token
        ktdf.private_yield %a, %b, %in#0, %in#1, %out, %c, %t0, %t1, %t2, %t3, %t4 : memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#6) {
        %col = arith.muli %j, %c8 : index
        ktdf.data_transfer from %A[%row, %col] size [1, 8] to %p#0[0, 0] size [1, 8] : memref<4x16xf16, "DDR">, memref<1x8xf16, "L1">
        ktdf.data_transfer from %B[%row, %col] size [1, 8] to %p#1[0, 0] size [1, 8] : memref<4x16xf16, "DDR">, memref<1x8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#6) depends_out(%p#7) {
        ktdf.data_transfer from %p#0[0, 0] size [1, 8] to %p#2 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        ktdf.data_transfer from %p#1[0, 0] size [1, 8] to %p#3 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%p#7) depends_out(%p#8) {
        %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
        %y = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
        %sum = arith.addf %x, %y : tensor<1x8xf16>
        ktdf.write_to_fifo %sum, %p#4 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%p#8) depends_out(%p#9) {
        ktdf.data_transfer from %p#4 size [1, 8] to %p#5[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%p#9) depends_out(%p#10) {
        %col = arith.muli %j, %c8 : index
        ktdf.data_transfer from %p#5[0, 0] size [1, 8] to %C[%row, %col] size [1, 8] : memref<1x8xf16, "L1">, memref<4x16xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @add(
// CHECK-SAME:      %[[A:[^:]+]]: memref<4x16xf16, "DDR">, %[[B:[^:]+]]: memref<4x16xf16, "DDR">, %[[C:[^:]+]]: memref<4x16xf16, "DDR">, %[[ROW:[^:]+]]: index)
// CHECK:         %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[A0:.+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:    %[[A1:.+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:    %[[B0:.+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:    %[[B1:.+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:    %[[C0:.+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:    %[[C1:.+]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:    scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[PHASE:.+]] = ktdf.buffer_phase(%[[J]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:      %[[SA:.+]] = ktdf.select_memref %[[PHASE]][%[[A0]], %[[A1]]] : memref<1x8xf16, "L1">
// CHECK-NEXT:      %[[SB:.+]] = ktdf.select_memref %[[PHASE]][%[[B0]], %[[B1]]] : memref<1x8xf16, "L1">
// CHECK-NEXT:      %[[SC:.+]] = ktdf.select_memref %[[PHASE]][%[[C0]], %[[C1]]] : memref<1x8xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
// CHECK-NEXT:        %[[P:.+]]:8 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NOT:           memref.alloc
// CHECK:             ktdf.private_yield
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK:             ktdf.data_transfer from %[[A]][%[[ROW]], %{{.+}}] size [1, 8] to %[[SA]][0, 0] size [1, 8]
// CHECK-NEXT:        ktdf.data_transfer from %[[B]][%[[ROW]], %{{.+}}] size [1, 8] to %[[SB]][0, 0] size [1, 8]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:        ktdf.data_transfer from %[[SA]][0, 0] size [1, 8] to %[[P]]#0 size [1, 8]
// CHECK-NEXT:        ktdf.data_transfer from %[[SB]][0, 0] size [1, 8] to %[[P]]#1 size [1, 8]
// CHECK:             ktdf.data_transfer from %[[P]]#2 size [1, 8] to %[[SC]][0, 0] size [1, 8]
// CHECK-NEXT:      } {applicable_units = ["L1SU"]}
// CHECK:             ktdf.data_transfer from %[[SC]][0, 0] size [1, 8] to %[[C]][%[[ROW]], %{{.+}}] size [1, 8]
// CHECK-NEXT:      } {applicable_units = ["MNISU"]}
// CHECK-NEXT:    }
// CHECK-NEXT:  } {loop_type = #ktdf.loop_type<parallel_loop>}
