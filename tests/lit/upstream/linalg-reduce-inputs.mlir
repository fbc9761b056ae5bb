// linalg.reduce takes several inputs into as many outputs, as MLIR has it (an
// argmax's values and indices): the body reads one element of each input, then the
// accumulator of each output, and yields the new accumulators. It prints in the region
// form (the short form names one input), and its generic form has no segment sizes
// (MLIR's operands are of the same variadic size).

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}

// CHECK-LABEL: func.func @argmax
// CHECK-NEXT:    %{{.*}}:2 = linalg.reduce ins(%arg0, %arg1 : tensor<4x8xf16>, tensor<4x8xf32>) outs(%arg2, %arg3 : tensor<4xf16>, tensor<4xf32>) dimensions = [1]{{ $}}
// CHECK-NEXT:      (%[[V:.*]]: f16, %[[I:.*]]: f32, %[[BV:.*]]: f16, %[[BI:.*]]: f32) {
// CHECK-NEXT:        %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[BV]] : f16
// CHECK-NEXT:        %[[NV:.*]] = arith.select %[[GT]], %[[V]], %[[BV]] : f16
// CHECK-NEXT:        %[[NI:.*]] = arith.select %[[GT]], %[[I]], %[[BI]] : f32
// CHECK-NEXT:        linalg.yield %[[NV]], %[[NI]] : f16, f32
// GENERIC:       "linalg.reduce"(%arg0, %arg1, %arg2, %arg3) <{dimensions = array<i64: 1>}>
func.func @argmax(%arg0: tensor<4x8xf16>, %arg1: tensor<4x8xf32>, %arg2: tensor<4xf16>, %arg3: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %r:2 = linalg.reduce ins(%arg0, %arg1 : tensor<4x8xf16>, tensor<4x8xf32>) outs(%arg2, %arg3 : tensor<4xf16>, tensor<4xf32>) dimensions = [1]
    (%v: f16, %i: f32, %bv: f16, %bi: f32) {
      %gt = arith.cmpf ogt, %v, %bv : f16
      %nv = arith.select %gt, %v, %bv : f16
      %ni = arith.select %gt, %i, %bi : f32
      linalg.yield %nv, %ni : f16, f32
    }
  return %r#0, %r#1 : tensor<4xf16>, tensor<4xf32>
}
