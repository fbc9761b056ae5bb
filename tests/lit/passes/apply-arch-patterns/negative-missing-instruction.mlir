// A pattern may map an intrinsic only onto an instruction the compute unit lists in
// its ktdf_arch.instructions, and names it by a constant: otherwise the pass stops at
// the pattern's line in the device file, before rewriting anything.

// RUN: not ktc-opt %s --arch %S/Inputs/missing_instruction.mlir -p 'apply-arch-patterns{point=pre_mapping}' 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not ktc-opt %s --arch %S/Inputs/missing_instruction.mlir -p 'apply-arch-patterns{point=pre_scheduling}' 2>&1 | filecheck %s --check-prefix=CONSTANT

// MISSING:  Inputs{{/|\\}}missing_instruction.mlir:26:9: error: cannot apply device pattern: 'ktdf_arch.map_to_instruction' maps onto 'gelu', which SFU of device @missing_instruction does not list in its ktdf_arch.instructions
// CONSTANT: Inputs{{/|\\}}missing_instruction.mlir:38:9: error: cannot apply device pattern: 'ktdf_arch.map_to_instruction' takes the op and a constant instruction name (or array of them)

func.func @gelu(%x: f16) -> f16 {
  %g = spyreop.gelu %x : f16
  %e = spyreop.exp %g : f16
  func.return %e : f16
}
