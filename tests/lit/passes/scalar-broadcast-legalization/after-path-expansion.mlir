// The two passes in pipeline order, from the three-stage form: path expansion
// stages the scalar row operand in the scratchpad like any other operand, then
// scalar broadcast legalization widens its DMA and splats it into the SFU's FIFO.

// RUN: ktc-opt %s --arch toy -p path-expansion,scalar-broadcast-legalization | filecheck %s

func.func @scale_rows(%A: memref<4x8xf16, "DDR">, %s: memref<4x1xf16, "DDR">, %C: memref<4x8xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      %b = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %a, %b, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [1, 8] : memref<4x8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      ktdf.data_transfer from %s[%i, 0] size [1, 1] to %p#1 size [1, 1] : memref<4x1xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x8xf16>, tensor<1x1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %m = arith.mulf %u, %v : f16
        linalg.yield %m : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#2 size [1, 8] to %C[%i, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<4x8xf16, "DDR">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @scale_rows(
// CHECK-SAME:      %[[S:[a-zA-Z0-9_]+]]: memref<4x1xf16, "DDR">
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:11 = ktdf.private -> (memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">,
// CHECK:         ktdf.data_transfer from %[[S]][%{{[a-zA-Z0-9_]+}}, 0] size [1, 8] to %[[P]]#1[0, 0] size [1, 8] : memref<4x1xf16, "DDR">, memref<1x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK:         ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 1] to %[[P]]#3 size [1, 8] {transfer_mode = "splat"} : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK:         %[[Y:[a-zA-Z0-9_]+]] = ktdf.read_from_fifo %[[P]]#3 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]], {{.*}} ins(%{{[a-zA-Z0-9_]+}}, %[[Y]] : tensor<1x8xf16>, tensor<1x8xf16>)
// CHECK:         } {applicable_units = ["MNISU"]}
