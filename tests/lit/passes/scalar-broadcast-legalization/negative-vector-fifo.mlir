// The load unit of Inputs/vector-fifo.mlir can splat, but its FIFO into the SFU
// carries only whole 16-byte vectors, so the 2-byte scalar cannot travel on it to
// be splatted, and no engine of the device both reads and writes its scratchpad to
// copy the scalar into a staging row: the device cannot broadcast it.

// RUN: ktc-opt %s --arch %S/Inputs/vector-fifo.mlir -p scalar-broadcast-legalization --verify-diagnostics

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
      // expected-error@+1 {{'linalg.generic' cannot take operand #1 as a scalar broadcast over the vector: device @vector_fifo cannot splat it: the link from "L1LU" to "SFU" does not carry a 2-byte scalar (transfer granularity [16]), and no engine copies within "L1" to fill a row with it}}
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
