// Contractions are accepted (matmul, batch matmul, and a transpose feeding one's
// input, directly or through a widening arith.extf, which normalize-contractions
// folds into how it reads it); a transpose used for anything else, a widened one
// included, is rejected, and so is a quantized matmul.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func @matmul(%s: f16) {
  %a = tensor.splat %s : tensor<8x16xf16>
  %b = tensor.splat %s : tensor<16x8xf16>
  %c = tensor.splat %s : tensor<8x8xf16>
  %t = tensor.empty() : tensor<8x16xf16>
  %bt = linalg.transpose ins(%b : tensor<16x8xf16>) outs(%t : tensor<8x16xf16>) permutation = [1, 0]
  %d = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x8xf16>) outs(%c : tensor<8x8xf16>) -> tensor<8x8xf16>
  %f = linalg.matmul ins(%bt, %b : tensor<8x16xf16>, tensor<16x8xf16>) outs(%c : tensor<8x8xf16>) -> tensor<8x8xf16>
  return
}

// -----

func.func @widened_transpose(%s: f16, %z: f32) {
  %a = tensor.splat %z : tensor<8x16xf32>
  %b = tensor.splat %s : tensor<8x16xf16>
  %c = tensor.splat %z : tensor<8x8xf32>
  %t = tensor.empty() : tensor<16x8xf16>
  %bt = linalg.transpose ins(%b : tensor<8x16xf16>) outs(%t : tensor<16x8xf16>) permutation = [1, 0]
  %w = arith.extf %bt : tensor<16x8xf16> to tensor<16x8xf32>
  %d = linalg.matmul ins(%a, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @batch_matmul(%s: f16) {
  %a = tensor.splat %s : tensor<2x8x16xf16>
  %b = tensor.splat %s : tensor<2x16x8xf16>
  %c = tensor.splat %s : tensor<2x8x8xf16>
  %d = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf16>, tensor<2x16x8xf16>) outs(%c : tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  return
}

// -----

func.func @transpose(%s: f16) {
  %a = tensor.splat %s : tensor<8x16xf16>
  %t = tensor.empty() : tensor<16x8xf16>
  // expected-error@+1 {{'linalg.transpose' is used by something other than a contraction's input (directly or through arith.extf); the pipeline transposes only the inputs of contractions}}
  %b = linalg.transpose ins(%a : tensor<8x16xf16>) outs(%t : tensor<16x8xf16>) permutation = [1, 0]
  %c = arith.addf %b, %b : tensor<16x8xf16>
  return
}

// -----

func.func @widened_transpose_added(%s: f16) {
  %a = tensor.splat %s : tensor<8x16xf16>
  %t = tensor.empty() : tensor<16x8xf16>
  // expected-error@+1 {{'linalg.transpose' is used by something other than a contraction's input (directly or through arith.extf); the pipeline transposes only the inputs of contractions}}
  %b = linalg.transpose ins(%a : tensor<8x16xf16>) outs(%t : tensor<16x8xf16>) permutation = [1, 0]
  %w = arith.extf %b : tensor<16x8xf16> to tensor<16x8xf32>
  %c = arith.addf %w, %w : tensor<16x8xf32>
  return
}
