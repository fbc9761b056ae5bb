// A hexadecimal integer in a dense literal of floats is the float's bit pattern, as
// in MLIR: dense<0xFC00> of f16 is -inf (not 64512.0), per element or as a splat, for
// f16, bf16 and f32; a pattern wider than the type is an error at the literal (in
// MLIR's words).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s --split-input-file --verify-diagnostics | filecheck %s %}

// CHECK-LABEL: func.func @bits
// CHECK-NEXT:    arith.constant dense<0xFC00> : tensor<4xf16>
// CHECK-NEXT:    arith.constant dense<[0xFF800000, 1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    arith.constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xbf16>
func.func @bits() {
  %0 = arith.constant dense<0xFC00> : tensor<4xf16>
  %1 = arith.constant dense<[0xFF800000, 0x3F800000]> : tensor<2xf32>
  %2 = arith.constant dense<[0x3F80, 0xC000]> : tensor<2xbf16>
  return
}

// -----

func.func @too_wide() {
  // expected-error@+1 {{hexadecimal float constant out of range for type}}
  %0 = arith.constant dense<0x1FC00> : tensor<4xf16>
  return
}
