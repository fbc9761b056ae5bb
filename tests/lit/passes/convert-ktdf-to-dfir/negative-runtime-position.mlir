// A run-time position (a position joined with a kernel argument) is an f32 vector of
// integers that only the ops of run-time positions take: a division of it, which
// ktir-legality-check refuses in a kernel, is refused by the lowering at the op.

// RUN: not ktc-opt %s --arch spyre -p convert-ktdf-to-dfir 2>&1 | filecheck %s

// CHECK: error: 'arith.divui' takes a fused pair, a mask or a position

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @divided(%n: index) attributes {grid = [1]} {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">, memref<8xf16, "L1">) {
      %f:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      %y = memref.alloc() {ktdf.address = 64 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f#0, %f#1, %g, %t, %x, %y : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#4[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %p#5[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#3) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<2x4xf16>
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<2x4xf16>
      %e = tensor.empty() : tensor<2x4xf16>
      %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%u, %v : tensor<2x4xf16>, tensor<2x4xf16>) outs(%e : tensor<2x4xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %c2 = arith.constant 2 : index
        %r = linalg.index 0 : index
        %c = linalg.index 1 : index
        %r2 = arith.muli %r, %c2 : index
        %key = arith.addi %c, %n : index
        %half = arith.divui %key, %c2 : index
        %keep = arith.cmpi ule, %half, %r2 : index
        %ci = arith.index_cast %key : index to i32
        %cf = arith.sitofp %ci : i32 to f16
        %sum = arith.addf %a, %cf : f16
        %m = arith.select %keep, %sum, %b : f16
        linalg.yield %m : f16
      } -> tensor<2x4xf16>
      ktdf.write_to_fifo %s, %p#2 : tensor<2x4xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#2 size [8] to %p#4[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

