// A spyreop intrinsic is refused unless the device lowers it, and the message names
// the device and its file: toy maps the unary intrinsics onto its SFU but has no
// pattern for layernormnorm; line4 has neither a gelu instruction nor a
// decomposition of it (it decomposes sigmoid); a device whose only sigmoid pattern
// runs after lowering (post_lowering) does not lower it.

// RUN: not ktc-opt %s --split-input-file --arch toy -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=TOY
// RUN: not ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=LINE4
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/lowers_exp.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=PATTERNS

func.func @layernormnorm(%x: f16, %m: f16, %s: f16, %w: f16, %b: f16) {
  %n = spyreop.layernormnorm %x squares %m scale %s weight %w bias %b : f16
  return
}

// -----

#identity = affine_map<(d0) -> (d0)>
func.func @gelu(%v: f16) attributes {grid = [1]} {
  %t = tensor.splat %v : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %s = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %g = spyreop.gelu %in : f16
    linalg.yield %g : f16
  } -> tensor<64xf16>
  return
}

// -----

#identity = affine_map<(d0) -> (d0)>
func.func @sigmoid(%v: f16) attributes {grid = [1]} {
  %t = tensor.splat %v : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %s = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %sig = spyreop.sigmoid %in : f16
    linalg.yield %sig : f16
  } -> tensor<64xf16>
  return
}

// TOY:          negative-intrinsic.mlir:12:3: error: 'spyreop.layernormnorm' is not lowered by device @toy ({{.*}}arch{{/|\\}}toy.mlir): none of its patterns at pre_mapping or pre_scheduling decomposes it or maps it onto an instruction of SFU
// TOY-NOT:      'spyreop.gelu'
// TOY-NOT:      'spyreop.sigmoid'

// LINE4:        negative-intrinsic.mlir:12:3: error: 'spyreop.layernormnorm' is not lowered by device @line4 ({{.*}}Inputs{{/|\\}}line4.mlir): none of its patterns at pre_mapping or pre_scheduling decomposes it or maps it onto an instruction of VPU
// LINE4:        negative-intrinsic.mlir:24:5: error: 'spyreop.gelu' is not lowered by device @line4 ({{.*}}Inputs{{/|\\}}line4.mlir)
// LINE4-NOT:    'spyreop.sigmoid'

// PATTERNS:     'spyreop.layernormnorm' is not lowered by device @lowers_exp
// PATTERNS:     'spyreop.gelu' is not lowered by device @lowers_exp
// PATTERNS:      negative-intrinsic.mlir:38:5: error: 'spyreop.sigmoid' is not lowered by device @lowers_exp ({{.*}}lowers_exp.mlir)
