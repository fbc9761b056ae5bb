// Float constants print as mlir-opt prints them: six decimals in exponent form when
// that reads back to the same value (rounded the way LLVM's APFloat rounds: 3.140625
// in f16 is 3.140630e+00, not ...620), else the shortest exact decimal (0.699999988,
// 9.99999974E-6), else the bits in hex (infinities and NaNs, upper case as in 0xFC00).

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}

// CHECK-LABEL: func.func @floats
// CHECK-NEXT:    arith.constant 9.997550e-02 : f16
// CHECK-NEXT:    arith.constant 3.140630e+00 : f16
// CHECK-NEXT:    arith.constant 6.550400e+04 : f16
// CHECK-NEXT:    arith.constant 0xFC00 : f16
// CHECK-NEXT:    arith.constant 0x7E00 : f16
// CHECK-NEXT:    arith.constant 6.992180e-01 : bf16
// CHECK-NEXT:    arith.constant 0.699999988 : f32
// CHECK-NEXT:    arith.constant 9.99999974E-6 : f32
// CHECK-NEXT:    arith.constant 1.250000e-01 : f32
// CHECK-NEXT:    arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    arith.constant 0x7F800000 : f32
// CHECK-NEXT:    arith.constant 1.000000e-01 : f64
// CHECK-NEXT:    arith.constant 0.69999999999999996 : f64
// CHECK-NEXT:    arith.constant dense<[1.500000e+00, 0.699999988]> : tensor<2xf32>
// CHECK-NEXT:    return
func.func @floats() {
  %0 = arith.constant 0.1 : f16
  %1 = arith.constant 3.140625 : f16
  %2 = arith.constant 65504.0 : f16
  %3 = arith.constant 0xFC00 : f16
  %4 = arith.constant 0x7E00 : f16
  %5 = arith.constant 0.7 : bf16
  %6 = arith.constant 0.7 : f32
  %7 = arith.constant 1.0e-5 : f32
  %8 = arith.constant 0.125 : f32
  %9 = arith.constant -0.0 : f32
  %10 = arith.constant 0x7F800000 : f32
  %11 = arith.constant 0.1 : f64
  %12 = arith.constant 0.7 : f64
  %13 = arith.constant dense<[1.5, 0.7]> : tensor<2xf32>
  return
}
