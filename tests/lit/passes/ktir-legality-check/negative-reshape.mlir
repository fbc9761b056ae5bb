// Tensor ops that reshape, slice or assemble tensors are rejected: the pipeline
// keeps each tile's shape and addresses pieces with ktdp.construct_access_tile.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func @expand(%s: f16) {
  %a = tensor.splat %s : tensor<128xf16>
  // expected-error@+1 {{'tensor.expand_shape' is not supported yet: the pipeline does not reshape tensors}}
  %b = tensor.expand_shape %a [[0, 1]] output_shape [2, 64] : tensor<128xf16> into tensor<2x64xf16>
  return
}

// -----

func.func @collapse(%s: f16) {
  %a = tensor.splat %s : tensor<2x64xf16>
  // expected-error@+1 {{'tensor.collapse_shape' is not supported yet: the pipeline does not reshape tensors}}
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<2x64xf16> into tensor<128xf16>
  return
}

// -----

func.func @slice(%s: f16) {
  %a = tensor.splat %s : tensor<2x64xf16>
  // expected-error@+1 {{'tensor.extract_slice' is not supported yet: the pipeline does not slice or assemble tensors; address the pieces with ktdp.construct_access_tile}}
  %b = tensor.extract_slice %a[0, 0] [1, 64] [1, 1] : tensor<2x64xf16> to tensor<1x64xf16>
  return
}
