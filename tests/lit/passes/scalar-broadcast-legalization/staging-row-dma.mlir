// A vector unit that fills its own FIFOs and cannot splat still takes a scalar
// broadcast when an engine copies within its scratchpad: on Inputs/no-splat.mlir (the
// line4 chip without splat) the DMA engine, which reads and writes the scratchpad,
// copies the scalar with stride 0 (a splat transfer) into a staging row of the
// vector's width in a stage of its own, and the vector unit loads that row whole.
// Run twice the pass gives the same IR.

// RUN: ktc-opt %s --arch %S/Inputs/no-splat.mlir -p scalar-broadcast-legalization | filecheck %s
// RUN: ktc-opt %s --arch %S/Inputs/no-splat.mlir -p scalar-broadcast-legalization,scalar-broadcast-legalization | filecheck %s

func.func @row_scalar(%A: memref<4x8xf16, "HBM">, %b: memref<4x1xf16, "HBM">, %C: memref<4x8xf16, "HBM">, %i: index) {
  ktdf.pipeline {
    %p:12 = ktdf.private -> (memref<1x8xf16, "SPM">, memref<1x1xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 8xf16>, !ktdf.fifo.slot<"SPM" -> "VPU", 1xf16>, !ktdf.fifo.slot<"VPU" -> "SPM", 8xf16>, memref<1x8xf16, "SPM">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a_l1 = memref.alloc() : memref<1x8xf16, "SPM">
      %b_l1 = memref.alloc() : memref<1x1xf16, "SPM">
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SPM" -> "VPU", 8xf16>, !ktdf.fifo.slot<"SPM" -> "VPU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"VPU" -> "SPM", 8xf16>
      %c_l1 = memref.alloc() : memref<1x8xf16, "SPM">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      %t4 = ktdf.create_token
      %t5 = ktdf.create_token
      ktdf.private_yield %a_l1, %b_l1, %in#0, %in#1, %out, %c_l1, %t0, %t1, %t2, %t3, %t4, %t5 : memref<1x8xf16, "SPM">, memref<1x1xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 8xf16>, !ktdf.fifo.slot<"SPM" -> "VPU", 1xf16>, !ktdf.fifo.slot<"VPU" -> "SPM", 8xf16>, memref<1x8xf16, "SPM">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#6) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0[0, 0] size [1, 8] : memref<4x8xf16, "HBM">, memref<1x8xf16, "SPM">
      ktdf.data_transfer from %b[%i, 0] size [1, 1] to %p#1[0, 0] size [1, 1] : memref<4x1xf16, "HBM">, memref<1x1xf16, "SPM">
    } {applicable_units = ["DMA"]}
    ktdf.stage depends_in(%p#6) depends_out(%p#7) {
      ktdf.data_transfer from %p#0[0, 0] size [1, 8] to %p#2 size [1, 8] : memref<1x8xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 8xf16>
      ktdf.data_transfer from %p#1[0, 0] size [1, 1] to %p#3 size [1, 1] : memref<1x1xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 1xf16>
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#7) depends_out(%p#8) {
      %x = ktdf.read_from_fifo %p#2 : <"SPM" -> "VPU", 8xf16> -> tensor<1x8xf16>
      %s = ktdf.read_from_fifo %p#3 : <"SPM" -> "VPU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x8xf16>, tensor<1x1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.subf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#4 : tensor<1x8xf16>, <"VPU" -> "SPM", 8xf16>
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#8) depends_out(%p#9) {
      ktdf.data_transfer from %p#4 size [1, 8] to %p#5[0, 0] size [1, 8] : !ktdf.fifo.slot<"VPU" -> "SPM", 8xf16>, memref<1x8xf16, "SPM">
    } {applicable_units = ["VPU"]}
    ktdf.stage depends_in(%p#9) depends_out(%p#10) {
      ktdf.data_transfer from %p#5[0, 0] size [1, 8] to %C[%i, 0] size [1, 8] : memref<1x8xf16, "SPM">, memref<4x8xf16, "HBM">
    } {applicable_units = ["DMA"]}
  }
  func.return
}

// CHECK-LABEL: func.func @row_scalar(
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:12, %[[ROW:[a-zA-Z0-9_]+]]:2 = ktdf.private
// CHECK:           %[[ALLOC:[0-9]+]] = memref.alloc() : memref<1x8xf16, "SPM">
// CHECK-NEXT:      %[[TOKEN:[0-9]+]] = ktdf.create_token
// CHECK-NEXT:      ktdf.private_yield {{.*}}, %[[ALLOC]], %[[TOKEN]] :
// CHECK:         ktdf.stage depends_in(%[[P]]#6) depends_out(%[[ROW]]#1) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 1] to %[[ROW]]#0[0, 0] size [1, 8] {transfer_mode = "splat"} : memref<1x32xf16, "SPM">, memref<1x8xf16, "SPM">
// CHECK-NEXT:    } {applicable_units = ["DMA"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[ROW]]#1) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 8] to %[[P]]#2 size [1, 8]
// CHECK-NEXT:      ktdf.data_transfer from %[[ROW]]#0[0, 0] size [1, 8] to %[[P]]#3 size [1, 8] : memref<1x8xf16, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["VPU"]}
// CHECK:         %[[S:[a-zA-Z0-9_]+]] = ktdf.read_from_fifo %[[P]]#3 : <"SPM" -> "VPU", 8xf16> -> tensor<1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{[a-zA-Z0-9_]+}}, %[[S]] : tensor<1x8xf16>, tensor<1x8xf16>)
