// A position joined with a run-time scalar (a kernel argument, a symbol) becomes an
// f32 vector: the scalar's bits added to those of 1.5 * 2^23 (1262485504), read as
// f32, splat and less 1.5 * 2^23, added to the column's constant vector; its
// conversion to f16 one vcvt; its signed compare with twice the row the clamped
// difference min(max(2r - key + 1, 0), 1), converted to the values' type for the
// select.

// RUN: ktc-opt %s --arch spyre -p convert-ktdf-to-dfir | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_positions(%n: index) attributes {grid = [1]} {
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
        %keep = arith.cmpi sle, %key, %r2 : index
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

// CHECK:      dfir.program "SFU"
// CHECK:        %[[A:.+]] = dfir.receive
// CHECK-NEXT:   %[[B:.+]] = dfir.receive
// CHECK-NEXT:   %[[COL:.+]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : vector<8xf32>
// CHECK-NEXT:   %[[BIAS:.+]] = arith.constant 1262485504 : index
// CHECK-NEXT:   %[[SUM:.+]] = arith.addi %[[N:.+]], %[[BIAS]] : index
// CHECK-NEXT:   %[[WORD:.+]] = arith.index_cast %[[SUM]] : index to i32
// CHECK-NEXT:   %[[BITS:.+]] = arith.bitcast %[[WORD]] : i32 to f32
// CHECK-NEXT:   %[[SPLAT:.+]] = dfir.splat %[[BITS]] : f32 -> vector<8xf32>
// CHECK-NEXT:   %[[MAGIC:.+]] = arith.constant dense<0x4B400000> : vector<8xf32>
// CHECK-NEXT:   %[[NF:.+]] = dfir.compute <sub> %[[SPLAT]], %[[MAGIC]] : vector<8xf32>
// CHECK-NEXT:   %[[KEY:.+]] = dfir.compute <add> %[[COL]], %[[NF]] : vector<8xf32>
// CHECK-NEXT:   %[[ROWS:.+]] = arith.constant dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : vector<8xf32>
// CHECK-NEXT:   %[[GAP:.+]] = dfir.compute <sub> %[[ROWS]], %[[KEY]] : vector<8xf32>
// CHECK-NEXT:   %[[ONE:.+]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK-NEXT:   %[[GAP1:.+]] = dfir.compute <add> %[[GAP]], %[[ONE]] : vector<8xf32>
// CHECK-NEXT:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-NEXT:   %[[LOW:.+]] = dfir.compute <max> %[[GAP1]], %[[ZERO]] : vector<8xf32>
// CHECK-NEXT:   %[[ONE2:.+]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK-NEXT:   %[[KEEP:.+]] = dfir.compute <min> %[[LOW]], %[[ONE2]] : vector<8xf32>
// CHECK-NEXT:   %[[KF:.+]] = dfir.convert %[[KEY]] : vector<8xf32> -> vector<8xf16>
// CHECK-NEXT:   %[[S:.+]] = dfir.compute <add> %[[A]], %[[KF]] : vector<8xf16>
// CHECK-NEXT:   %[[K16:.+]] = dfir.convert %[[KEEP]] : vector<8xf32> -> vector<8xf16>
// CHECK-NEXT:   %[[M:.+]] = dfir.compute <select> %[[K16]], %[[S]], %[[B]] : vector<8xf16>
// CHECK-NEXT:   dfir.send %[[M]]
