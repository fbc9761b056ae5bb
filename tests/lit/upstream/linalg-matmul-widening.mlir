// A matmul of f16 inputs into an f32 output widens each input element to f32 before
// it multiplies, as MLIR builds the body of a named contraction of mixed types
// (arith.extf, then mulf and addf in the output's type); an integer one sign-extends.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir %{ %mlir-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}

// CHECK-LABEL: func.func @widening
// CHECK-NEXT:    %0 = linalg.matmul ins(%arg0, %arg1 : tensor<8x16xf16>, tensor<16x8xf16>) outs(%arg2 : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %1 = linalg.batch_matmul ins(%arg3, %arg4 : tensor<2x8x16xi8>, tensor<2x16x8xi8>) outs(%arg5 : tensor<2x8x8xi32>) -> tensor<2x8x8xi32>

// GENERIC:      "linalg.matmul"(%arg0, %arg1, %arg2)
// GENERIC-NEXT: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[OUT:.*]]: f32):
// GENERIC-NEXT:   %[[WA:.*]] = "arith.extf"(%[[A]]) : (f16) -> f32
// GENERIC-NEXT:   %[[WB:.*]] = "arith.extf"(%[[B]]) : (f16) -> f32
// GENERIC-NEXT:   %[[MUL:.*]] = "arith.mulf"(%[[WA]], %[[WB]])
// GENERIC-NEXT:   "arith.addf"(%[[OUT]], %[[MUL]])
// GENERIC:      "linalg.batch_matmul"(%arg3, %arg4, %arg5)
// GENERIC-NEXT: ^bb0(%{{.*}}: i8, %{{.*}}: i8, %{{.*}}: i32):
// GENERIC-NEXT:   "arith.extsi"
// GENERIC-NEXT:   "arith.extsi"
// GENERIC-NEXT:   "arith.muli"
// GENERIC-NEXT:   "arith.addi"
func.func @widening(%arg0: tensor<8x16xf16>, %arg1: tensor<16x8xf16>, %arg2: tensor<8x8xf32>,
                    %arg3: tensor<2x8x16xi8>, %arg4: tensor<2x16x8xi8>, %arg5: tensor<2x8x8xi32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul ins(%arg0, %arg1 : tensor<8x16xf16>, tensor<16x8xf16>) outs(%arg2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.batch_matmul ins(%arg3, %arg4 : tensor<2x8x16xi8>, tensor<2x16x8xi8>) outs(%arg5 : tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
  return %0 : tensor<8x8xf32>
}
