// Each sub-core instance gets its own copy of what the distributed loop creates,
// so that is all it may hold: a buffer in the SFU's register memory (one per
// sub-core) allocated in the loop is fine, but a scratchpad buffer (one L1 per
// core, shared by both sub-cores) allocated in it would be one buffer for two
// instances; a register buffer or a FIFO made outside the loop cannot be had by
// each instance either. Only @reg_inside is distributed.

// RUN: ktc-opt %s --arch spyre -p parallelize-loops-across-instances | filecheck %s

// CHECK-LABEL: func.func @reg_inside(
// CHECK:         ktdf.parallel
// CHECK:           memref.alloc() : memref<64xf16, "SFU_REG">
func.func @reg_inside(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %q:4 = ktdf.private -> (memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
        %reg = memref.alloc() : memref<64xf16, "SFU_REG">
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %u0 = ktdf.create_token
        %u1 = ktdf.create_token
        ktdf.private_yield %reg, %f, %u0, %u1 : memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#2) {
        ktdf.write_to_fifo %q#0, %q#1 : memref<64xf16, "SFU_REG">, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#2) depends_out(%q#3) {
        ktdf.data_transfer from %q#1 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @l1_inside(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @l1_inside(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %q:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token) {
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %staged = memref.alloc() : memref<64xf16, "L1">
        %u0 = ktdf.create_token
        %u1 = ktdf.create_token
        %u2 = ktdf.create_token
        ktdf.private_yield %f, %staged, %u0, %u1, %u2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#2) {
        ktdf.data_transfer from %buf[%r, 0] size [1, 64] to %q#0 size [64] : memref<8x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%q#2) depends_out(%q#3) {
        %x = ktdf.read_from_fifo %q#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#3) depends_out(%q#4) {
        ktdf.data_transfer from %q#1[0] size [64] to %buf[%r, 0] size [1, 64] : memref<64xf16, "L1">, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @reg_outside(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @reg_outside(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %reg = memref.alloc() : memref<64xf16, "SFU_REG">
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %q:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %u0 = ktdf.create_token
        %u1 = ktdf.create_token
        ktdf.private_yield %f, %u0, %u1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#1) {
        ktdf.write_to_fifo %reg, %q#0 : memref<64xf16, "SFU_REG">, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#1) depends_out(%q#2) {
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @fifo_outside(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @fifo_outside(%buf: memref<8x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %f, %t0, %t1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      scf.for %r = %c0 to %c8 step %c1 {
        ktdf.pipeline {
          %q = ktdf.private -> (!ktdf.token) {
            %u0 = ktdf.create_token
            ktdf.private_yield %u0 : !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q) {
            %zero = arith.constant dense<0.000000e+00> : tensor<64xf16>
            ktdf.write_to_fifo %zero, %p#0 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
          } {applicable_units = ["SFU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      scf.for %r = %c0 to %c8 step %c1 {
        ktdf.data_transfer from %p#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x64xf16, "L1">
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {applicable_units = ["L1SU"]}
  }
  func.return
}
