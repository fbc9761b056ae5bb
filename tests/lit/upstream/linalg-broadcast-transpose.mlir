// linalg.broadcast and linalg.transpose print as mlir-opt prints them, `ins(%x : T)`
// with spaces around the colon and MLIR's space after the integer list, and read a
// trailing attribute dictionary, which xDSL's own versions drop.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}

// CHECK-LABEL: func.func @shapes
// CHECK-NEXT:    %broadcasted = linalg.broadcast ins(%arg0 : tensor<32xf16>) outs(%arg1 : tensor<32x32xf16>) dimensions = [1]{{ $}}
// CHECK-NEXT:    %transposed = linalg.transpose ins(%arg1 : tensor<32x32xf16>) outs(%arg1 : tensor<32x32xf16>) permutation = [1, 0]  {tag = 1 : i32}
// CHECK-NEXT:    return
func.func @shapes(%arg0: tensor<32xf16>, %arg1: tensor<32x32xf16>) {
  %broadcasted = linalg.broadcast ins(%arg0 : tensor<32xf16>)
                                  outs(%arg1 : tensor<32x32xf16>)
                                  dimensions = [1]
  %transposed = linalg.transpose ins(%arg1 : tensor<32x32xf16>) outs(%arg1 : tensor<32x32xf16>) permutation = [1, 0] {tag = 1 : i32}
  return
}
