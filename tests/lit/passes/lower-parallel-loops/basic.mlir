// A parallel loop is a nest of scf.for, one per induction variable, the first
// outermost: an scf.parallel's reduced value is combined into an iter_arg by its
// reduction region inlined, the nest's result replacing the loop's; an scf.forall's
// constant bounds become index constants before its nest; a parallel loop inside
// another is lowered too.

// RUN: ktc-opt %s -p lower-parallel-loops | filecheck %s

func.func @loops(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c8) step (%c1, %c2) init (%t) -> tensor<4xf32> {
    %e = math.exp %t : tensor<4xf32>
    scf.reduce(%e : tensor<4xf32>) {
    ^bb0(%acc: tensor<4xf32>, %v: tensor<4xf32>):
      %m = arith.maximumf %acc, %v : tensor<4xf32>
      scf.reduce.return %m : tensor<4xf32>
    }
  }
  scf.forall (%b) in (4) {
    scf.parallel (%k) = (%c0) to (%b) step (%c1) {
      %s = arith.addi %b, %k : index
    }
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @loops
// CHECK:         %r = scf.for %i = %c0 to %n step %c1 iter_args(%[[A:.+]] = %t) -> (tensor<4xf32>) {
// CHECK-NEXT:      %[[IN:.+]] = scf.for %j = %c0 to %c8 step %c2 iter_args(%[[B:.+]] = %[[A]]) -> (tensor<4xf32>) {
// CHECK-NEXT:        %e = math.exp %t : tensor<4xf32>
// CHECK-NEXT:        %m = arith.maximumf %[[B]], %e : tensor<4xf32>
// CHECK-NEXT:        scf.yield %m : tensor<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[IN]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[LO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HI:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[STEP:.+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %b = %[[LO]] to %[[HI]] step %[[STEP]] {
// CHECK-NEXT:      scf.for %k = %c0 to %b step %c1 {
// CHECK-NEXT:        %s = arith.addi %b, %k : index
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     scf.parallel
// CHECK-NOT:     scf.forall
