// A spyreop intrinsic is rejected unless the device lowers it before scheduling:
// toy has no patterns for any, and a pattern that only maps sigmoid after lowering
// (post_lowering) does not count.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/lowers_exp.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=PATTERNS

func.func @exp(%x: f16) -> f16 {
  // expected-error@+1 {{'spyreop.exp' has no lowering: device @toy has no pattern rooted at it at pre_mapping or pre_scheduling}}
  %e = spyreop.exp %x : f16
  return %e : f16
}

// -----

#identity = affine_map<(d0) -> (d0)>
func.func @sigmoid(%v: f16) attributes {grid = [1]} {
  %t = tensor.splat %v : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %s = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    // expected-error@+1 {{'spyreop.sigmoid' has no lowering: device @toy has no pattern rooted at it at pre_mapping or pre_scheduling}}
    %sig = spyreop.sigmoid %in : f16
    linalg.yield %sig : f16
  } -> tensor<64xf16>
  return
}

// PATTERNS-NOT:  'spyreop.exp'
// PATTERNS:      negative-intrinsic.mlir:{{[0-9]+}}:5: error: 'spyreop.sigmoid' has no lowering: device @lowers_exp has no pattern rooted at it at pre_mapping or pre_scheduling
