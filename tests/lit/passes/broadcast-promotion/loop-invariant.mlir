// Without stage coarsening: a transfer invariant in the loop around its pipeline
// moves once, before the loop, into a fresh buffer; the reader reads that buffer
// and the old one leaves the private region.

// RUN: ktc-opt %s -p broadcast-promotion --arch toy | filecheck %s

// CHECK-LABEL: func.func @hoist
// CHECK:         %[[H:.*]] = memref.alloc() : memref<8xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[0] size [8] to %[[H]][0] size [8]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %[[I:.*]] = 
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %[[P:.*]]:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#1) {
// CHECK-NEXT:          ktdf.data_transfer from %{{.*}}[%[[I]] * 8] size [8] to %[[P]]#0[0] size [8]
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#1) depends_out(%[[P]]#2) {
// CHECK:               ktdf.data_transfer from %[[H]][0] size [8] to
func.func @hoist(%row: memref<8xf16, "DDR">, %x: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.token, !ktdf.token) {
        %w = memref.alloc() : memref<8xf16, "L1">
        %buf = memref.alloc() : memref<8xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        ktdf.private_yield %w, %buf, %t0, %t1 : memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %row[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
        ktdf.data_transfer from %x[%i * 8] size [8] to %p#1[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [8] to %out[%i * 8] size [8] : memref<8xf16, "L1">, memref<64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  func.return
}
