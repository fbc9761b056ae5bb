// scf.parallel reads and prints in MLIR's custom form, `(%i) = (lbs) to (ubs) step
// (steps) init (values) -> T`, with its scf.reduce; scf.forall in both of MLIR's
// forms, `in (ubs)` (printed so when the lower bounds are 0 and the steps 1) and
// `= (lbs) to (ubs) step (steps)`, bounds constants or values, its empty
// scf.forall.in_parallel terminator implicit. Both read back to the same text, and
// mlir-opt prints the same.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s %}

// CHECK-LABEL: func.func @loops
// CHECK:         %0 = scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%arg1, %c8) step (%c1, %c2) init (%arg0) -> tensor<4xf32> {
// CHECK-NEXT:      %1 = arith.addf %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT:      scf.reduce(%1 : tensor<4xf32>) {
// CHECK-NEXT:      ^bb0(%arg4: tensor<4xf32>, %arg5: tensor<4xf32>):
// CHECK-NEXT:        %2 = arith.maximumf %arg4, %arg5 : tensor<4xf32>
// CHECK-NEXT:        scf.reduce.return %2 : tensor<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.parallel (%arg2) = (%c0) to (%arg1) step (%c1) {
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall (%arg2, %arg3) in (4, %arg1) {
// CHECK-NEXT:      %1 = arith.addi %arg2, %arg3 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall (%arg2) = (2) to (%arg1) step (3) {
// CHECK-NEXT:    }
func.func @loops(%arg0: tensor<4xf32>, %arg1: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %0 = scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%arg1, %c8) step (%c1, %c2) init (%arg0) -> tensor<4xf32> {
    %1 = arith.addf %arg0, %arg0 : tensor<4xf32>
    scf.reduce(%1 : tensor<4xf32>) {
    ^bb0(%arg4: tensor<4xf32>, %arg5: tensor<4xf32>):
      %2 = arith.maximumf %arg4, %arg5 : tensor<4xf32>
      scf.reduce.return %2 : tensor<4xf32>
    }
  }
  scf.parallel (%arg2) = (%c0) to (%arg1) step (%c1) {
  }
  scf.forall (%arg2, %arg3) in (4, %arg1) {
    %1 = arith.addi %arg2, %arg3 : index
  }
  scf.forall (%arg2) = (2) to (%arg1) step (3) {
  }
  return %0 : tensor<4xf32>
}
