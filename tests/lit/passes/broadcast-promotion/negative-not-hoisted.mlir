// Transfers broadcast promotion must leave in place: one whose source changes with
// the loop, one whose source the loop writes, and one into a buffer another
// transfer also writes.

// RUN: ktc-opt %s -p broadcast-promotion --arch toy | filecheck %s

// CHECK-LABEL: func.func @varies
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for
func.func @varies(%src: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %p:2 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token) {
        %buf = memref.alloc() : memref<8xf16, "L1">
        %t0 = ktdf.create_token
        ktdf.private_yield %buf, %t0 : memref<8xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %src[%i * 8] size [8] to %p#0[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#1) depends_out(none) {
        ktdf.data_transfer from %p#0[0] size [8] to %src[0] size [8] : memref<8xf16, "L1">, memref<64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  func.return
}

// CHECK-LABEL: func.func @written
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for
func.func @written(%src: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %p:2 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token) {
        %buf = memref.alloc() : memref<8xf16, "L1">
        %t0 = ktdf.create_token
        ktdf.private_yield %buf, %t0 : memref<8xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %src[0] size [8] to %p#0[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#1) depends_out(none) {
        ktdf.data_transfer from %p#0[0] size [8] to %src[%i * 8] size [8] : memref<8xf16, "L1">, memref<64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  func.return
}

// CHECK-LABEL: func.func @two_writers
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for
func.func @two_writers(%a: memref<64xf16, "DDR">, %b: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %p:2 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token) {
        %buf = memref.alloc() : memref<8xf16, "L1">
        %t0 = ktdf.create_token
        ktdf.private_yield %buf, %t0 : memref<8xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %a[0] size [8] to %p#0[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
        ktdf.data_transfer from %b[%i * 8] size [8] to %p#0[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#1) depends_out(none) {
        ktdf.data_transfer from %p#0[0] size [8] to %out[%i * 8] size [8] : memref<8xf16, "L1">, memref<64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  func.return
}
