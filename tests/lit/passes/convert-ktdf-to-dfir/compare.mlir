// A generic's compares and selects become compare and select instructions: a
// predicate the ISA has is one compare (ogt); an unordered one is the complement of
// an ordered one, the select's values swapped (ugt as ole); one is olt or ogt (the
// larger of the two masks) and uno the complement of a == a and b == b (the
// smaller); true needs no instruction and selects its first value; a mask of an f32
// compare is converted to the f16 values it selects. The i1 values never leave the
// body: the stage hands over the f16 result only.

// RUN: ktc-opt %s --arch spyre -p convert-ktdf-to-dfir | filecheck %s

#id = affine_map<(d0) -> (d0)>
func.func @compare() attributes {grid = [1]} {
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
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%u, %v : tensor<8xf16>, tensor<8xf16>) outs(%e : tensor<8xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %gt = arith.cmpf ogt, %a, %b : f16
        %r1 = arith.select %gt, %a, %b : f16
        %ugt = arith.cmpf ugt, %r1, %b : f16
        %r2 = arith.select %ugt, %r1, %a : f16
        %one = arith.cmpf one, %r2, %a : f16
        %r3 = arith.select %one, %r2, %b : f16
        %uno = arith.cmpf uno, %r3, %b : f16
        %r4 = arith.select %uno, %a, %r3 : f16
        %yes = arith.cmpf true, %r4, %a : f16
        %r5 = arith.select %yes, %r4, %b : f16
        %wide = arith.extf %r5 : f16 to f32
        %half = arith.constant 0.5 : f32
        %lt = arith.cmpf olt, %wide, %half : f32
        %r6 = arith.select %lt, %r5, %a : f16
        linalg.yield %r6 : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %s, %p#2 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#2 size [8] to %p#4[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// CHECK:      dfir.program "SFU"
// CHECK:        %[[A:.+]] = dfir.receive from %{{.+}} id {{[0-9]+}} : !dfir.unit<"L1LU"> -> vector<8xf16>
// CHECK-NEXT:   %[[B:.+]] = dfir.receive from %{{.+}} id {{[0-9]+}} : !dfir.unit<"L1LU"> -> vector<8xf16>
// CHECK-NEXT:   %[[GT:.+]] = dfir.compute <cmp_gt> %[[A]], %[[B]] : vector<8xf16>
// CHECK-NEXT:   %[[R1:.+]] = dfir.compute <select> %[[GT]], %[[A]], %[[B]] : vector<8xf16>
// CHECK-NEXT:   %[[LE:.+]] = dfir.compute <cmp_le> %[[R1]], %[[B]] : vector<8xf16>
// CHECK-NEXT:   %[[R2:.+]] = dfir.compute <select> %[[LE]], %[[A]], %[[R1]] : vector<8xf16>
// CHECK-NEXT:   %[[LT:.+]] = dfir.compute <cmp_lt> %[[R2]], %[[A]] : vector<8xf16>
// CHECK-NEXT:   %[[GT2:.+]] = dfir.compute <cmp_gt> %[[R2]], %[[A]] : vector<8xf16>
// CHECK-NEXT:   %[[ONE:.+]] = dfir.compute <max> %[[LT]], %[[GT2]] : vector<8xf16>
// CHECK-NEXT:   %[[R3:.+]] = dfir.compute <select> %[[ONE]], %[[R2]], %[[B]] : vector<8xf16>
// CHECK-NEXT:   %[[SELF:.+]] = dfir.compute <cmp_eq> %[[R3]], %[[R3]] : vector<8xf16>
// CHECK-NEXT:   %[[OTHER:.+]] = dfir.compute <cmp_eq> %[[B]], %[[B]] : vector<8xf16>
// CHECK-NEXT:   %[[ORD:.+]] = dfir.compute <min> %[[SELF]], %[[OTHER]] : vector<8xf16>
// CHECK-NEXT:   %[[R4:.+]] = dfir.compute <select> %[[ORD]], %[[R3]], %[[A]] : vector<8xf16>
// CHECK-NEXT:   %[[WIDE:.+]] = dfir.convert %[[R4]] : vector<8xf16> -> vector<8xf32>
// CHECK-NEXT:   %[[HALF:.+]] = arith.constant dense<5.000000e-01> : vector<8xf32>
// CHECK-NEXT:   %[[LT32:.+]] = dfir.compute <cmp_lt> %[[WIDE]], %[[HALF]] : vector<8xf32>
// CHECK-NEXT:   %[[MASK:.+]] = dfir.convert %[[LT32]] : vector<8xf32> -> vector<8xf16>
// CHECK-NEXT:   %[[R6:.+]] = dfir.compute <select> %[[MASK]], %[[R4]], %[[A]] : vector<8xf16>
// CHECK-NEXT:   dfir.send %[[R6]] to %{{.+}} id {{[0-9]+}} : vector<8xf16>, !dfir.unit<"L1SU">
