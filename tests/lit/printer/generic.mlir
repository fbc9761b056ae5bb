// The generic form (--print-op-generic) is mlir-opt's --mlir-print-op-generic: aliases
// numbered in the order MLIR's alias collection meets them (an op's regions before its
// own attributes), canonical affine maps, sorted properties, full op names and the
// combining op of a short-form linalg.reduce spelled out (accumulator first). Real
// mlir-opt reads it back to the custom form ktc-opt prints.

// RUN: ktc-opt %s --print-op-generic | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s --check-prefix=CUSTOM
// RUN: %if mlir %{ %mlir-opt %s --mlir-print-op-generic | filecheck %s %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s --check-prefix=CUSTOM %}

// CHECK:      #map = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-NEXT: #map1 = affine_map<() -> (0)>
// CHECK-NEXT: #map2 = affine_map<() -> (10)>
// CHECK-NEXT: #set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4xf32>, memref<16xf32>, index) -> tensor<4xf32>, sym_name = "generic"}> ({
// CHECK-NEXT:   ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>, %arg2: memref<16xf32>, %arg3: index):
// CHECK-NEXT:     %[[R:.*]] = "linalg.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({
// CHECK-NEXT:     ^bb0(%[[IN:.*]]: f32, %[[INIT:.*]]: f32):
// CHECK-NEXT:       %[[S:.*]] = "arith.addf"(%[[INIT]], %[[IN]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT:       "linalg.yield"(%[[S]]) : (f32) -> ()
// CHECK-NEXT:     }) : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     "affine.for"() <{lowerBoundMap = #map1, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = #map2}> ({
// CHECK-NEXT:     ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:       %{{.*}} = "affine.load"(%arg2, %[[I]], %arg3) <{map = #map}> : (memref<16xf32>, index, index) -> f32
// CHECK-NEXT:       "affine.yield"() : () -> ()
// CHECK-NEXT:     }) : () -> ()
// CHECK-NEXT:     "func.return"(%[[R]]) : (tensor<4xf32>) -> ()
// CHECK-NEXT:   }) {grid = [2, 1], space = #set} : () -> ()
// CHECK-NEXT: }) : () -> ()

// CUSTOM:      func.func @generic(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>, %arg2: memref<16xf32>, %arg3: index) -> tensor<4xf32> attributes {grid = [2, 1], space = #set} {
// CUSTOM-NEXT:   %[[R:.*]] = linalg.reduce { arith.addf } ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>) dimensions = [1]
// CUSTOM-NEXT:   affine.for %[[I:.*]] = 0 to 10 {
// CUSTOM-NEXT:     affine.load %arg2[%[[I]] + symbol(%arg3)] : memref<16xf32>
// CUSTOM-NEXT:   }
// CUSTOM-NEXT:   return %[[R]] : tensor<4xf32>
func.func @generic(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>, %arg2: memref<16xf32>, %arg3: index) -> tensor<4xf32> attributes {grid = [2, 1], space = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>} {
  %reduced = linalg.reduce { arith.addf } ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>) dimensions = [1]
  affine.for %arg4 = 0 to 10 {
    %0 = affine.load %arg2[%arg4 + symbol(%arg3)] : memref<16xf32>
  }
  return %reduced : tensor<4xf32>
}
