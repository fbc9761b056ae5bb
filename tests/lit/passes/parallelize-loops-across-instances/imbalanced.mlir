// A trip count that the 2 sub-cores of spyre do not divide is distributed all the
// same: 5 rows in chunks of ceil(5 / 2) = 3, so instance 0 fills rows 0-2 and
// instance 1 rows 3-4 (the block distribution ktdf.parallel defines). With a step
// of 2 the bounds stay as written and the trip count is ceil((9 - 0) / 2) = 5.
// A loop of 3 over the 2 sub-cores is likewise taken.

// RUN: ktc-opt %s --arch spyre -p parallelize-loops-across-instances | filecheck %s

// CHECK-LABEL: func.func @five_rows(
// CHECK-SAME:      %[[BUF:[^:]+]]: memref<10x64xf16, "L1">)
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C9:.+]] = arith.constant 9 : index
// CHECK-NEXT:    ktdf.parallel (%[[R:.+]], %{{.+}}) = (%[[C0]]) to (%[[C9]]) step (%[[C2]]) distribute(num_instances = 2) {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             ktdf.data_transfer from %{{.+}} size [64] to %[[BUF]][%[[R]], 0] size [1, 64]
// CHECK:           ktdf.parallel_yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @five_rows(%buf: memref<10x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  scf.for %r = %c0 to %c9 step %c2 {
    ktdf.pipeline {
      %q:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %u0 = ktdf.create_token
        %u1 = ktdf.create_token
        ktdf.private_yield %f, %u0, %u1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#1) {
        %zero = arith.constant dense<0.000000e+00> : tensor<64xf16>
        ktdf.write_to_fifo %zero, %q#0 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#1) depends_out(%q#2) {
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<10x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @three_rows(
// CHECK:         ktdf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
func.func @three_rows(%buf: memref<3x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %r = %c0 to %c3 step %c1 {
    ktdf.pipeline {
      %q:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %u0 = ktdf.create_token
        %u1 = ktdf.create_token
        ktdf.private_yield %f, %u0, %u1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#1) {
        %zero = arith.constant dense<0.000000e+00> : tensor<64xf16>
        ktdf.write_to_fifo %zero, %q#0 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#1) depends_out(%q#2) {
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<3x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
