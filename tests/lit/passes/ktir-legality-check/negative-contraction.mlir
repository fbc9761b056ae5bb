// Matmul, batch matmul and transposes are rejected for now: the pipeline
// schedules elementwise, broadcast and reduction kernels.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func @matmul(%s: f16) {
  %a = tensor.splat %s : tensor<8x16xf16>
  %b = tensor.splat %s : tensor<16x8xf16>
  %c = tensor.splat %s : tensor<8x8xf16>
  // expected-error@+1 {{'linalg.matmul' is not supported yet: the pipeline schedules elementwise, broadcast and reduction kernels, not contractions}}
  %d = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x8xf16>) outs(%c : tensor<8x8xf16>) -> tensor<8x8xf16>
  return
}

// -----

func.func @batch_matmul(%s: f16) {
  %a = tensor.splat %s : tensor<2x8x16xf16>
  %b = tensor.splat %s : tensor<2x16x8xf16>
  %c = tensor.splat %s : tensor<2x8x8xf16>
  // expected-error@+1 {{'linalg.batch_matmul' is not supported yet: the pipeline schedules elementwise, broadcast and reduction kernels, not contractions}}
  %d = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf16>, tensor<2x16x8xf16>) outs(%c : tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  return
}

// -----

func.func @transpose(%s: f16) {
  %a = tensor.splat %s : tensor<8x16xf16>
  %t = tensor.empty() : tensor<16x8xf16>
  // expected-error@+1 {{'linalg.transpose' is not supported yet: the pipeline does not transpose tensors}}
  %b = linalg.transpose ins(%a : tensor<8x16xf16>) outs(%t : tensor<16x8xf16>) permutation = [1, 0]
  return
}
