// A linalg.generic with two results (an argmax's value and index) reads its result
// types in parentheses, as MLIR writes them, and prints them so, so its output
// reads back; one result stays bare.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}

// CHECK-LABEL: func.func @two_results
// CHECK:         } -> (tensor<4xf16>, tensor<4xf32>)
// CHECK:         } -> tensor<4xf16>
func.func @two_results(%a: tensor<4x8xf16>, %v: tensor<4xf16>, %k: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf16>) outs(%v, %k : tensor<4xf16>, tensor<4xf32>) {
  ^bb0(%in: f16, %best: f16, %where: f32):
    linalg.yield %best, %where : f16, f32
  } -> (tensor<4xf16>, tensor<4xf32>)
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf16>) outs(%v : tensor<4xf16>) {
  ^bb0(%in: f16, %best: f16):
    linalg.yield %best : f16
  } -> tensor<4xf16>
  return %r#0, %r#1 : tensor<4xf16>, tensor<4xf32>
}
