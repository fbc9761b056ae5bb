// On Spyre the vector is 64 fp16 lanes and the DMA moves 128-byte words: the
// scalar row operand comes from DDR as 64 elements into a 64-wide scratchpad
// buffer, and the load unit splats it into a 64-element FIFO slot.

// RUN: ktc-opt %s --arch spyre -p scalar-broadcast-legalization | filecheck %s

func.func @row_scalar(%A: memref<4x64xf16, "DDR">, %b: memref<4x1xf16, "DDR">, %C: memref<4x64xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:12 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a_l1 = memref.alloc() : memref<1x64xf16, "L1">
      %b_l1 = memref.alloc() : memref<1x1xf16, "L1">
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      %c_l1 = memref.alloc() : memref<1x64xf16, "L1">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      %t4 = ktdf.create_token
      %t5 = ktdf.create_token
      ktdf.private_yield %a_l1, %b_l1, %in#0, %in#1, %out, %c_l1, %t0, %t1, %t2, %t3, %t4, %t5 : memref<1x64xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#6) {
      ktdf.data_transfer from %A[%i, 0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
      ktdf.data_transfer from %b[%i, 0] size [1, 1] to %p#1[0, 0] size [1, 1] : memref<4x1xf16, "DDR">, memref<1x1xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#6) depends_out(%p#7) {
      ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %p#2 size [1, 64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf.data_transfer from %p#1[0, 0] size [1, 1] to %p#3 size [1, 1] : memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#7) depends_out(%p#8) {
      %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
      %s = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x64xf16>, tensor<1x1xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.subf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x64xf16>
      ktdf.write_to_fifo %z, %p#4 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#8) depends_out(%p#9) {
      ktdf.data_transfer from %p#4 size [1, 64] to %p#5[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p#9) depends_out(%p#10) {
      ktdf.data_transfer from %p#5[0, 0] size [1, 64] to %C[%i, 0] size [1, 64] : memref<1x64xf16, "L1">, memref<4x64xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @row_scalar(
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:12 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>,
// CHECK:         ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, 0] size [1, 64] to %[[P]]#1[0, 0] size [1, 64] : memref<4x1xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK:         ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 1] to %[[P]]#3 size [1, 64] {transfer_mode = "splat"} : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         ktdf.read_from_fifo %[[P]]#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]]
