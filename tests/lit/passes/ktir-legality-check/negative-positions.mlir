// Position computations the compiler cannot compile are refused at the op: a
// position joined with a run-time value (a kernel argument) and then divided, which
// the f32 vectors of run-time positions do not compute, a position taken as a value
// (selected between), and a position read by a reduction.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch spyre -p ktir-legality-check

#id = affine_map<(d0) -> (d0)>
func.func @outside(%s: f16, %n: index) {
  %t = tensor.splat %s : tensor<64xf16>
  %zero = arith.constant 0.0 : f16
  %empty = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %i = linalg.index 0 : index
    %j = arith.addi %i, %n : index
    %c2 = arith.constant 2 : index
    // expected-error@+1 {{'arith.divui' computes on the element's position (linalg.index) with 'arith.divui', which no position computation takes; a position joins constants by integer arith, and run-time scalars by arith.addi, arith.subi, arith.muli and casts, compared by arith.cmpi (read by arith.select or arith.uitofp) or converted by arith.sitofp or arith.uitofp}}
    %h = arith.divui %j, %c2 : index
    %c16 = arith.constant 16 : index
    %keep = arith.cmpi ult, %h, %c16 : index
    %m = arith.select %keep, %in, %zero : f16
    linalg.yield %m : f16
  } -> tensor<64xf16>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @as_value(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %i = linalg.index 0 : index
    %c8 = arith.constant 8 : index
    %low = arith.cmpi ult, %i, %c8 : index
    // expected-error@+1 {{'arith.select' takes the element's position (linalg.index) as a value; positions enter the computation by an arith.cmpi read by arith.select, or by arith.sitofp or arith.uitofp}}
    %k = arith.select %low, %i, %c8 : index
    linalg.yield %in : f16
  } -> tensor<64xf16>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
#to0 = affine_map<(d0) -> ()>
func.func @reduced(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %zero = arith.constant 0.0 : f16
  %init = tensor.splat %zero : tensor<f16>
  // expected-error@+1 {{'linalg.generic' reduces and reads its element's position (linalg.index); positions compile in parallel generics only: pass the indices as an f32 input}}
  %r = linalg.generic {indexing_maps = [#id, #to0], iterator_types = ["reduction"]} ins(%t : tensor<64xf16>) outs(%init : tensor<f16>) {
  ^bb0(%in: f16, %acc: f16):
    %i = linalg.index 0 : index
    %c8 = arith.constant 8 : index
    %low = arith.cmpi ult, %i, %c8 : index
    %v = arith.select %low, %in, %zero : f16
    %sum = arith.addf %acc, %v : f16
    linalg.yield %sum : f16
  } -> tensor<f16>
  return
}
