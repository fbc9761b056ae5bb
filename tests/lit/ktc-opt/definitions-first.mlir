// A value used before the op that defines it, in the same block or in an enclosing
// one, is an error at the use naming the definition (xDSL's verifier does not check
// dominance, and a pass walking the ops in order would meet the use first); a value
// defined in a loop's body and used after the loop is refused as it is parsed. A
// device file is held to the same rule.

// RUN: not ktc-opt %s --split-input-file 2> %t
// RUN: filecheck %s < %t
// RUN: not ktc arch check %S/Inputs/datapath-before-unit.mlir 2>&1 | filecheck %s --check-prefix=ARCH

// CHECK-NOT:  internal error
// CHECK:      definitions-first.mlir:[[# @LINE + 3]]:3: error: 'scf.for' op uses %step before its definition (at {{.*}}definitions-first.mlir:[[# @LINE + 5]]:3)
func.func @use_before_definition() {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %c0 step %step {
  }
  %step = arith.constant 1 : index
  return
}

// -----

// CHECK:      definitions-first.mlir:[[# @LINE + 7]]:19: error: use of undeclared SSA value name %inner
func.func @use_after_the_loop() -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    %inner = arith.addi %i, %c1 : index
  }
  %r = arith.addi %inner, %c1 : index
  return %r : index
}

// ARCH: datapath-before-unit.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'ktdf_arch.datapath' op uses %vpu before its definition
