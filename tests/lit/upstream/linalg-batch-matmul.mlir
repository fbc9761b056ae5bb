// linalg.batch_matmul, which xDSL lacks, reads and prints as in MLIR, on tensors and
// on memrefs; its generic form carries MLIR's indexing maps and body (`out + a * b`,
// as linalg.matmul's now does too), and real mlir-opt reads that back to the same
// custom form.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir %{ %mlir-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s %}

// CHECK-LABEL: func.func @batched
// CHECK-NEXT:    %0 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%arg2 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
// CHECK-NEXT:    linalg.batch_matmul ins(%arg3, %arg4 : memref<2x8x16xi32>, memref<2x16x8xi32>) outs(%arg5 : memref<2x8x8xi32>)
// CHECK-NEXT:    %1 = linalg.matmul ins(%arg6, %arg7 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%arg8 : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    return %0 : tensor<2x8x8xf32>

// GENERIC:      #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// GENERIC-NEXT: #map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// GENERIC-NEXT: #map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// GENERIC:      "linalg.batch_matmul"(%arg0, %arg1, %arg2) <{indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
// GENERIC-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[OUT:.*]]: f32):
// GENERIC-NEXT:   %[[MUL:.*]] = "arith.mulf"(%[[A]], %[[B]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:   %[[ADD:.*]] = "arith.addf"(%[[OUT]], %[[MUL]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:   "linalg.yield"(%[[ADD]]) : (f32) -> ()
// GENERIC:      "linalg.batch_matmul"(%arg3, %arg4, %arg5)
// GENERIC:        "arith.muli"
// GENERIC-NEXT:   "arith.addi"
// GENERIC:      "linalg.matmul"(%arg6, %arg7, %arg8)
// GENERIC-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[OUT:.*]]: f32):
// GENERIC-NEXT:   %[[MUL:.*]] = "arith.mulf"(%[[A]], %[[B]])
// GENERIC-NEXT:   "arith.addf"(%[[OUT]], %[[MUL]])
func.func @batched(%arg0: tensor<2x8x16xf32>, %arg1: tensor<2x16x8xf32>, %arg2: tensor<2x8x8xf32>,
                   %arg3: memref<2x8x16xi32>, %arg4: memref<2x16x8xi32>, %arg5: memref<2x8x8xi32>,
                   %arg6: tensor<8x16xf32>, %arg7: tensor<16x8xf32>, %arg8: tensor<8x8xf32>) -> tensor<2x8x8xf32> {
  %0 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x8x16xf32>, tensor<2x16x8xf32>)
                           outs(%arg2 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  linalg.batch_matmul ins(%arg3, %arg4 : memref<2x8x16xi32>, memref<2x16x8xi32>) outs(%arg5 : memref<2x8x8xi32>)
  %1 = linalg.matmul ins(%arg6, %arg7 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%arg8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<2x8x8xf32>
}
