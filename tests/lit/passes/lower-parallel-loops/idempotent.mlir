// What this pass leaves holds no parallel loop, so a second run prints what the first
// did.

// RUN: ktc-opt %s -p lower-parallel-loops > %t
// RUN: ktc-opt %t -p lower-parallel-loops | diff %t -
// RUN: filecheck %s < %t

func.func @twice(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = arith.addi %i, %i : index
  }
  return
}

// CHECK-LABEL: func.func @twice
// CHECK:         scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %s = arith.addi %i, %i : index
// CHECK-NEXT:    }
