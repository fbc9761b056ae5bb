// Device patterns that xDSL's PDL interpreter cannot run as written are refused,
// at their line in the device file, rather than run wrongly: a value range
// (pre_mapping), a native constraint that does not exist (pre_scheduling), and a
// negated native constraint (post_lowering).

// RUN: not ktc-opt %s --arch %S/Inputs/unsupported.mlir -p 'apply-arch-patterns{point=pre_mapping}' 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not ktc-opt %s --arch %S/Inputs/unsupported.mlir -p 'apply-arch-patterns{point=pre_scheduling}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ktc-opt %s --arch %S/Inputs/unsupported.mlir -p 'apply-arch-patterns{point=post_lowering}' 2>&1 | filecheck %s --check-prefix=NEGATED

// RANGE:   Inputs{{/|\\}}unsupported.mlir:21:7: error: cannot apply device pattern: 'pdl.operands' (value ranges) is not supported by xDSL's PDL interpreter
// UNKNOWN: Inputs{{/|\\}}unsupported.mlir:35:7: error: cannot apply device pattern: unknown native constraint 'ktdf_arch.is_fast'
// NEGATED: Inputs{{/|\\}}unsupported.mlir:63:7: error: cannot apply device pattern: xDSL's PDL interpreter can neither negate a native constraint nor bind its results

func.func @exp(%x: f16) -> f16 {
  %e = spyreop.exp %x : f16
  func.return %e : f16
}
