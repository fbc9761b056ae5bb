// A scalar operand broadcast over the vector dimension, on the toy device: its DMA
// moves 16-byte words, so the 2-byte scalar comes from DDR as a whole vector into
// a widened scratchpad buffer; the SFU cannot splat, so the load unit splats the
// scalar into a FIFO slot of the vector's width, the FIFO read is widened and the
// generic reads it with the identity in the innermost dimension. The broadcast may
// be written with a constant (d0, 0), as IBM's frontend does, or by leaving the
// dimension out, (d0). A scalar already in the scratchpad needs no widening, only
// the splat.

// RUN: ktc-opt %s --split-input-file --arch toy -p scalar-broadcast-legalization | filecheck %s

func.func @row_scalar(%A: memref<4x8xf16, "DDR">, %b: memref<4x1xf16, "DDR">, %C: memref<4x8xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:12 = ktdf.private -> (memref<1x8xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a_l1 = memref.alloc() : memref<1x8xf16, "L1">
      %b_l1 = memref.alloc() : memref<1x1xf16, "L1">
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %c_l1 = memref.alloc() : memref<1x8xf16, "L1">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      %t4 = ktdf.create_token
      %t5 = ktdf.create_token
      ktdf.private_yield %a_l1, %b_l1, %in#0, %in#1, %out, %c_l1, %t0, %t1, %t2, %t3, %t4, %t5 : memref<1x8xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#6) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0[0, 0] size [1, 8] : memref<4x8xf16, "DDR">, memref<1x8xf16, "L1">
      ktdf.data_transfer from %b[%i, 0] size [1, 1] to %p#1[0, 0] size [1, 1] : memref<4x1xf16, "DDR">, memref<1x1xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#6) depends_out(%p#7) {
      ktdf.data_transfer from %p#0[0, 0] size [1, 8] to %p#2 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %p#1[0, 0] size [1, 1] to %p#3 size [1, 1] : memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#7) depends_out(%p#8) {
      %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %s = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x8xf16>, tensor<1x1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.subf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#4 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#8) depends_out(%p#9) {
      ktdf.data_transfer from %p#4 size [1, 8] to %p#5[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p#9) depends_out(%p#10) {
      ktdf.data_transfer from %p#5[0, 0] size [1, 8] to %C[%i, 0] size [1, 8] : memref<1x8xf16, "L1">, memref<4x8xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @row_scalar(
// CHECK-SAME:      %[[B:[a-zA-Z0-9_]+]]: memref<4x1xf16, "DDR">
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:12 = ktdf.private -> (memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">,
// CHECK-NEXT:      memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:      memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NEXT:      ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK:         ktdf.data_transfer from %[[B]][%[[I:[a-zA-Z0-9_]+]], 0] size [1, 8] to %[[P]]#1[0, 0] size [1, 8] : memref<4x1xf16, "DDR">, memref<1x8xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK:         ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 1] to %[[P]]#3 size [1, 8] {transfer_mode = "splat"} : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK:         %[[S:[a-zA-Z0-9_]+]] = ktdf.read_from_fifo %[[P]]#3 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{[a-zA-Z0-9_]+}}, %[[S]] : tensor<1x8xf16>, tensor<1x8xf16>)

// -----

// IBM's sub-scalar broadcast shape: a four-dimensional scalar view read with the
// map (d0, d1, d2, d3, d4) -> (d0, d2, d3, 0).
func.func @sub_scalar_4d(%X: memref<1x1x1x1x8xf16, "DDR">, %S: memref<1x1x1x1xf16, "DDR">, %c0: index) {
  ktdf.pipeline {
    %p:7 = ktdf.private -> (memref<1x1x1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %s_l1 = memref.alloc() : memref<1x1x1x1xf16, "L1">
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %s_l1, %in#0, %in#1, %out, %t0, %t1, %t2 : memref<1x1x1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#4) {
      ktdf.data_transfer from %S[%c0, %c0, %c0, 0] size [1, 1, 1, 1] to %p#0[0, 0, 0, 0] size [1, 1, 1, 1] : memref<1x1x1x1xf16, "DDR">, memref<1x1x1x1xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %X[%c0, %c0, %c0, %c0, 0] size [1, 1, 1, 1, 8] to %p#1 size [8] : memref<1x1x1x1x8xf16, "DDR">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %p#0[0, 0, 0, 0] size [1, 1, 1, 1] to %p#2 size [1] : memref<1x1x1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#5) depends_out(%p#6) {
      %x = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x1x1x1x8xf16>
      %s = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1x1x1xf16>
      %e = tensor.empty() : tensor<1x1x1x1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x1x1x1x8xf16>, tensor<1x1x1x1xf16>) outs(%e : tensor<1x1x1x1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.subf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x1x1x1x8xf16>
      ktdf.write_to_fifo %z, %p#3 : tensor<1x1x1x1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// CHECK:       #[[SCALAR4D:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>
// CHECK-LABEL: func.func @sub_scalar_4d(
// CHECK-SAME:      %[[S:[a-zA-Z0-9_]+]]: memref<1x1x1x1xf16, "DDR">, %[[C0:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:7 = ktdf.private -> (memref<1x1x1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>,
// CHECK-NEXT:      memref.alloc() : memref<1x1x1x8xf16, "L1">
// CHECK:         ktdf.data_transfer from %[[S]][%[[C0]], %[[C0]], %[[C0]], 0] size [1, 1, 1, 8] to %[[P]]#0[0, 0, 0, 0] size [1, 1, 1, 8] : memref<1x1x1x1xf16, "DDR">, memref<1x1x1x8xf16, "L1">
// CHECK:         ktdf.data_transfer from %[[P]]#0[0, 0, 0, 0] size [1, 1, 1, 1] to %[[P]]#2 size [8] {transfer_mode = "splat"} : memref<1x1x1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK:         ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x1x1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#{{map[0-9]*}}, #[[SCALAR4D]], #{{map[0-9]*}}]

// -----

// The broadcast written by leaving the vector dimension out of the map, as a
// fused linalg.broadcast gives it: the FIFO read gains that dimension.
func.func @rank_reduced(%A: memref<4x8xf16, "L1">, %m: memref<4xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token) {
      %m_l1 = memref.alloc() : memref<1xf16, "L1">
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %m_l1, %in#0, %in#1, %out, %t0, %t1 : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#4) {
      ktdf.data_transfer from %m[%i] size [1] to %p#0[0] size [1] : memref<4xf16, "DDR">, memref<1xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#1 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %p#0[0] size [1] to %p#2 size [1] : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#5) depends_out(none) {
      %x = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %m_row = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m_row : tensor<1x8xf16>, tensor<1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.mulf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#3 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @rank_reduced(
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:6 = ktdf.private -> (memref<8xf16, "L1">,
// CHECK:         ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}] size [8] to %[[P]]#0[0] size [8] : memref<4xf16, "DDR">, memref<8xf16, "L1">
// CHECK:         ktdf.data_transfer from %[[P]]#0[0] size [1] to %[[P]]#2 size [8] {transfer_mode = "splat"} : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK:         %[[ROW:[a-zA-Z0-9_]+]] = ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]], {{.*}} ins(%{{[a-zA-Z0-9_]+}}, %[[ROW]] : tensor<1x8xf16>, tensor<1x8xf16>)

// -----

// The scalar already lives in the scratchpad (ct_local): the load unit fetches
// its two bytes as they are, so only the splat is needed.
func.func @local_scalar(%A: memref<4x8xf16, "L1">, %b: memref<4x1xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token) {
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %in#0, %in#1, %out, %t0, %t1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %b[%i, 0] size [1, 1] to %p#1 size [1] : memref<4x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %s = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x8xf16>, tensor<1x1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.addf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @local_scalar(
// CHECK-SAME:      %[[B:[a-zA-Z0-9_]+]]: memref<4x1xf16, "L1">
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token) {
// CHECK-NOT:       memref.alloc
// CHECK:         ktdf.data_transfer from %[[B]][%{{[a-zA-Z0-9_]+}}, 0] size [1, 1] to %{{.+}}#1 size [8] {transfer_mode = "splat"} : memref<4x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK:         ktdf.read_from_fifo %{{.+}}#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]]
