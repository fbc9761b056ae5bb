// Compute the pipeline cannot lower is rejected at the op: arith/math ops without a
// compute instruction (on tensors, in a linalg.generic body, or on float scalars;
// compares and selects in negative-select.mlir), linalg iterators other than
// parallel and reduction, indexing maps that are not projected permutations,
// reductions that do not combine with one add, mul, max or min, linalg on memory
// instead of tensors, and tensor constants of several values.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func @log(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  // expected-error@+1 {{'math.log' has no compute instruction: the pipeline lowers add, sub, mul, div, max, min, neg, abs, exp, sqrt, rsqrt, tanh and fma, and cmpf and select}}
  %l = math.log %t : tensor<64xf16>
  return
}

// -----

func.func @scalar_conversion(%s: f32) {
  // expected-error@+1 {{'arith.truncf' has no compute instruction}}
  %h = arith.truncf %s : f32 to f16
  return
}

// -----

#identity = affine_map<(d0) -> (d0)>
func.func @body(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    // expected-error@+1 {{'math.log' has no compute instruction}}
    %l = math.log %in : f16
    linalg.yield %l : f16
  } -> tensor<64xf16>
  return
}

// -----

#identity = affine_map<(d0) -> (d0)>
func.func @window(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  // expected-error@+1 {{'linalg.generic' has a window iterator; only parallel and reduction iterators are supported}}
  %r = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["window"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<64xf16>
  return
}

// -----

#shifted = affine_map<(d0) -> (d0 + 1)>
#identity = affine_map<(d0) -> (d0)>
func.func @stencil(%s: f16) {
  %t = tensor.splat %s : tensor<65xf16>
  %empty = tensor.empty() : tensor<64xf16>
  // expected-error@+1 {{'linalg.generic' has the indexing map (d0) -> (d0 + 1); only projected permutations (with broadcast zeros) are supported}}
  %r = linalg.generic {indexing_maps = [#shifted, #identity], iterator_types = ["parallel"]} ins(%t : tensor<65xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<64xf16>
  return
}

// -----

func.func @subtract_all(%s: f16) {
  %t = tensor.splat %s : tensor<1x64xf16>
  %init = tensor.splat %s : tensor<1xf16>
  // expected-error@+1 {{'linalg.reduce' combines with arith.subf; a reduction combines with one add, mul, max or min}}
  %r = linalg.reduce { arith.subf } ins(%t : tensor<1x64xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  return
}

// -----

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @on_memory(%x: index) {
  %view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error@+1 {{'linalg.add' works on a memref; compute on tensors read with ktdp.load}}
  linalg.add ins(%view, %view : memref<64xf16>, memref<64xf16>) outs(%view : memref<64xf16>)
  return
}

// -----

func.func @table() {
  // expected-error@+1 {{'arith.constant' holds a tensor of several values; only splat tensor constants are supported}}
  %t = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
  return
}
