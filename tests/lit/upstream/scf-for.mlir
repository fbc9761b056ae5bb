// scf.for reads its one loop-carried type bare, `iter_args(%acc = %z) -> tensor<T>`,
// as KTIR writes it, and an explicit induction type after the bounds, `: index`. It
// prints as mlir-opt prints it: the result types in parentheses, no type for an index
// loop, `: i32` for an integer one. scf.execute_region prints one result type bare.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s %}

// CHECK-LABEL: func.func @loops
// CHECK:         %0 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %arg0) -> (tensor<4xf32>) {
// CHECK-NEXT:      %4 = arith.addf %arg4, %arg4 : tensor<4xf32>
// CHECK-NEXT:      scf.yield %4 : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %arg3 = %c0 to %arg2 step %c1 {
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.for %arg3 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg4 = %0) -> (tensor<4xf32>)  : i32 {
// CHECK:         %2:2 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %1, %arg5 = %arg0) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK:         %3 = scf.execute_region -> tensor<4xf32> {
// CHECK-NEXT:      scf.yield %2#1 : tensor<4xf32>
// CHECK-NEXT:    }
func.func @loops(%arg0: tensor<4xf32>, %arg1: i32, %arg2: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %0 = scf.for %arg3 = %c0 to %arg2 step %c1
      iter_args(%arg4 = %arg0) -> tensor<4xf32> {
    %4 = arith.addf %arg4, %arg4 : tensor<4xf32>
    scf.yield %4 : tensor<4xf32>
  }
  scf.for %arg3 = %c0 to %arg2 step %c1  : index {
    scf.yield
  }
  %1 = scf.for %arg3 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg4 = %0) -> tensor<4xf32> : i32 {
    scf.yield %arg4 : tensor<4xf32>
  }
  %2:2 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %1, %arg5 = %arg0) -> (tensor<4xf32>, tensor<4xf32>) {
    scf.yield %arg4, %arg5 : tensor<4xf32>, tensor<4xf32>
  }
  %3 = scf.execute_region -> tensor<4xf32> {
    scf.yield %2#1 : tensor<4xf32>
  }
  return %3 : tensor<4xf32>
}
