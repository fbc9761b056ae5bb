// Tensor ops that assemble tensors but by a stored tensor.insert_slice are rejected:
// the pipeline addresses pieces with ktdp.construct_access_tile (reshapes and slices
// are accepted here and folded into tiles by fold-reshapes-and-slices).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func @insert(%s: f16, %i: index) {
  %a = tensor.splat %s : tensor<128xf16>
  // expected-error@+1 {{'tensor.insert' is not supported yet: the pipeline does not assemble tensors but by tensor.insert_slice of stored tensors; address the pieces with ktdp.construct_access_tile}}
  %b = tensor.insert %s into %a[%i] : tensor<128xf16>
  return
}

// -----

func.func @concat(%s: f16) {
  %a = tensor.splat %s : tensor<64xf16>
  // expected-error@+1 {{'tensor.concat' is not supported yet: the pipeline does not assemble tensors but by tensor.insert_slice of stored tensors}}
  %b = tensor.concat dim(0) %a, %a : (tensor<64xf16>, tensor<64xf16>) -> tensor<128xf16>
  return
}
