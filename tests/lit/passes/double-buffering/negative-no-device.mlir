// Whether a buffer is in a scratchpad, and whether two copies fit it, is a question
// for the device: a module with pipelines but no device (and no --arch) is
// rejected.

// RUN: not ktc-opt %s -p double-buffering 2>&1 | filecheck %s

// CHECK: error: no device declared: pass --arch NAME|FILE or import a device file

func.func @f(%A: memref<8xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    ktdf.pipeline {
      %p:2 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token) {
        %b = memref.alloc() : memref<8xf16, "L1">
        %t = ktdf.create_token
        ktdf.private_yield %b, %t : memref<8xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %A[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
    }
  }
  func.return
}

