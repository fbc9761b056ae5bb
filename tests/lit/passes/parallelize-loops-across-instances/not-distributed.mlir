// Loops that stay loops on spyre although their pipelines run on the sub-core
// units: a reduction loop, a loop carrying a value (iter_args), a loop without a
// loop_type, and a loop whose pipeline is double buffered (its two copies are
// shared by every iteration, so instances would race on them). A loop that runs
// once is passed over for the loop inside it.

// RUN: ktc-opt %s --arch spyre -p parallelize-loops-across-instances | filecheck %s

// CHECK-LABEL: func.func @reduction(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @reduction(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
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
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  func.return
}

// CHECK-LABEL: func.func @carried(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @carried(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %s = scf.for %r = %c0 to %c8 step %c1 iter_args(%acc = %c0) -> (index) {
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
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
    %next = arith.addi %acc, %r : index
    scf.yield %next : index
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @unmarked(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @unmarked(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
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
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  func.return
}

// CHECK-LABEL: func.func @double_buffered(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @double_buffered(%buf: memref<8x64xf16, "L1">, %other: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    %phase = ktdf.buffer_phase(%r) {num_phases = 2 : i64} : index
    %sel = ktdf.select_memref %phase[%buf, %other] : memref<8x64xf16, "L1">
    ktdf.pipeline modulo(size : 2) {
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
        ktdf.data_transfer from %q#0 size [64] to %sel[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @once(
// CHECK:         scf.for %[[O:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      ktdf.parallel (%[[R:.+]], %{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
func.func @once(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %o = %c0 to %c1 step %c1 {
    scf.for %r = %c0 to %c8 step %c1 {
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
          ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
        } {applicable_units = ["L1SU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
