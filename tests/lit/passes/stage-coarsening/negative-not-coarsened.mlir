// Pipelines stage-coarsening must leave alone stay exactly as they are: one in a
// reduction loop (its iterations accumulate), and one whose load stage reads the
// memory its store stage writes (running every load before every store would
// reorder a write and a later read).

// RUN: ktc-opt %s -p stage-coarsening --arch toy | filecheck %s

// CHECK-LABEL: func.func @reduction
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK:         scf.for
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.private -> (memref<8xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
func.func @reduction(%src: memref<64xf16, "DDR">, %dst: memref<8xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token, !ktdf.token) {
        %buf = memref.alloc() : memref<8xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        ktdf.private_yield %buf, %t0, %t1 : memref<8xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %src[%i * 8] size [8] to %p#0[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#1) depends_out(%p#2) {
        ktdf.data_transfer from %p#0[0] size [8] to %dst[0] size [8] : memref<8xf16, "L1">, memref<8xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  func.return
}

// CHECK-LABEL: func.func @in_place
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK:         scf.for
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.private -> (memref<8xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @in_place(%m: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c7 step %c1 {
    ktdf.pipeline {
      %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token, !ktdf.token) {
        %buf = memref.alloc() : memref<8xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        ktdf.private_yield %buf, %t0, %t1 : memref<8xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %m[%i * 8] size [8] to %p#0[0] size [8] : memref<64xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#1) depends_out(%p#2) {
        ktdf.data_transfer from %p#0[0] size [8] to %m[%i * 8 + 8] size [8] : memref<8xf16, "L1">, memref<64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
