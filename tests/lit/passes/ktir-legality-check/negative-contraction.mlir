// Contractions are accepted (matmul, batch matmul, and a transpose feeding one's
// input, which normalize-contractions folds into how it reads it); a transpose used
// for anything else is rejected, and so is a quantized matmul.

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
  // expected-error@+1 {{'linalg.transpose' is used by something other than a contraction's input; the pipeline transposes only the inputs of contractions}}
  %b = linalg.transpose ins(%a : tensor<8x16xf16>) outs(%t : tensor<16x8xf16>) permutation = [1, 0]
  %c = arith.addf %b, %b : tensor<16x8xf16>
  return
}
