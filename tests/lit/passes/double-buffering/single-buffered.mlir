// Buffers that are not handed over afresh in every iteration keep one copy: a
// pipeline outside any loop, in a loop that runs once, or under an scf.if (its
// scope stops there); a buffer in device memory; one whose two copies would not
// fit the toy's 64 KiB scratchpad; one whose size is computed inside the loop;
// one that a stage both writes and reads; one moved by an op whose effect on it
// is unknown; one written only on some runs (under scf.if), which keeps its data
// for the runs in between; and an accumulator read before it is written, which
// carries data from one iteration to the next. In @carried the staging buffer
// beside the accumulator is still double buffered: the decision is per buffer.

// RUN: ktc-opt %s --arch toy -p double-buffering | filecheck %s

// CHECK-LABEL: func.func @no_loop(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.private -> (memref<8xf16, "L1">,
func.func @no_loop(%A: memref<8xf16, "DDR">) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
      %b = memref.alloc() : memref<8xf16, "L1">
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %t = ktdf.create_token
      ktdf.private_yield %b, %f, %t : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %A[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#2) depends_out(none) {
      ktdf.data_transfer from %p#0[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @single_trip(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.private -> (memref<8xf16, "L1">,
func.func @single_trip(%A: memref<8xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    ktdf.pipeline {
      %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
        %b = memref.alloc() : memref<8xf16, "L1">
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        %t = ktdf.create_token
        ktdf.private_yield %b, %f, %t : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %A[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#2) depends_out(none) {
        ktdf.data_transfer from %p#0[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      } {applicable_units = ["L1LU"]}
    }
  }
  func.return
}

// CHECK-LABEL: func.func @under_if(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.private -> (memref<8xf16, "L1">,
func.func @under_if(%A: memref<8xf16, "DDR">, %n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.if %flag {
      ktdf.pipeline {
        %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
          %b = memref.alloc() : memref<8xf16, "L1">
          %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
          %t = ktdf.create_token
          ktdf.private_yield %b, %f, %t : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %A[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#2) depends_out(none) {
          ktdf.data_transfer from %p#0[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  func.return
}

// CHECK-LABEL: func.func @unsuitable(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.private -> (memref<8xf16, "DDR">, memref<1x20000xf16, "L1">, memref<?xf16, "L1">, memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.fifo.slot
func.func @unsuitable(%A: memref<8xf16, "DDR">, %B: memref<1x20000xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %size = arith.addi %i, %c1 : index
    ktdf.pipeline {
      %p:7 = ktdf.private -> (memref<8xf16, "DDR">, memref<1x20000xf16, "L1">, memref<?xf16, "L1">, memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
        %ddr = memref.alloc() : memref<8xf16, "DDR">
        %big = memref.alloc() : memref<1x20000xf16, "L1">
        %sized = memref.alloc(%size) : memref<?xf16, "L1">
        %both = memref.alloc() : memref<8xf16, "L1">
        %loaded = memref.alloc() : memref<8xf16, "L1">
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        %t = ktdf.create_token
        ktdf.private_yield %ddr, %big, %sized, %both, %loaded, %f, %t : memref<8xf16, "DDR">, memref<1x20000xf16, "L1">, memref<?xf16, "L1">, memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#6) {
        ktdf.data_transfer from %A[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "DDR">
        ktdf.data_transfer from %B[0, 0] size [1, 20000] to %p#1[0, 0] size [1, 20000] : memref<1x20000xf16, "DDR">, memref<1x20000xf16, "L1">
        ktdf.data_transfer from %A[0] size [8] to %p#2[0] size [8] : memref<8xf16, "DDR">, memref<?xf16, "L1">
        ktdf.data_transfer from %A[0] size [8] to %p#3[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
        ktdf.data_transfer from %p#3[0] size [8] to %A[0] size [8] : memref<8xf16, "L1">, memref<8xf16, "DDR">
        ktdf.data_transfer from %A[0] size [8] to %p#4[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#6) depends_out(none) {
        %x = memref.load %p#4[%c0] : memref<8xf16, "L1">
        ktdf.data_transfer from %p#0[0] size [8] to %p#5 size [8] : memref<8xf16, "DDR">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        ktdf.data_transfer from %p#1[0, 0] size [1, 8] to %p#5 size [8] : memref<1x20000xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        ktdf.data_transfer from %p#2[0] size [8] to %p#5 size [8] : memref<?xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        ktdf.data_transfer from %p#3[0] size [8] to %p#5 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      } {applicable_units = ["L1LU"]}
    }
  }
  func.return
}

// CHECK-LABEL: func.func @carried(
// CHECK:         %[[S0:.+]] = memref.alloc() : memref<8xf16, "L1">
// CHECK-NEXT:    %[[S1:.+]] = memref.alloc() : memref<8xf16, "L1">
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %[[PHASE:.+]] = ktdf.buffer_phase
// CHECK-NEXT:      %[[S:.+]] = ktdf.select_memref %[[PHASE]][%[[S0]], %[[S1]]]
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
// CHECK-NEXT:        %[[P:.+]]:7 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.fifo.slot
// CHECK-NEXT:          %[[ACC:.+]] = memref.alloc() : memref<8xf16, "L1">
// CHECK:             ktdf.data_transfer from %{{.+}} to %[[S]][0] size [8]
// CHECK:             ktdf.data_transfer from %[[P]]#0[0] size [8] to
// CHECK-NEXT:        ktdf.data_transfer from %[[S]][0] size [8] to
// CHECK:             ktdf.data_transfer from %{{.+}} size [8] to %[[P]]#0[0] size [8]
func.func @carried(%A: memref<8xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    ktdf.pipeline {
      %p:8 = ktdf.private -> (memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
        %acc = memref.alloc() : memref<8xf16, "L1">
        %staged = memref.alloc() : memref<8xf16, "L1">
        %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        %t2 = ktdf.create_token
        ktdf.private_yield %acc, %staged, %in#0, %in#1, %out, %t0, %t1, %t2 : memref<8xf16, "L1">, memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#5) {
        ktdf.data_transfer from %A[0] size [8] to %p#1[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#5) depends_out(%p#6) {
        ktdf.data_transfer from %p#0[0] size [8] to %p#2 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        ktdf.data_transfer from %p#1[0] size [8] to %p#3 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%p#6) depends_out(%p#7) {
        %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
        %y = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
        %s = arith.addf %x, %y : tensor<8xf16>
        ktdf.write_to_fifo %s, %p#4 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%p#7) depends_out(none) {
        ktdf.data_transfer from %p#4 size [8] to %p#0[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  func.return
}

// CHECK-LABEL: func.func @conditional(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.private -> (memref<8xf16, "L1">,
func.func @conditional(%A: memref<8xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %first = arith.cmpi eq, %i, %c0 : index
    ktdf.pipeline {
      %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
        %b = memref.alloc() : memref<8xf16, "L1">
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        %t = ktdf.create_token
        ktdf.private_yield %b, %f, %t : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        scf.if %first {
          ktdf.data_transfer from %A[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
        }
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#2) depends_out(none) {
        ktdf.data_transfer from %p#0[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      } {applicable_units = ["L1LU"]}
    }
  }
  func.return
}
