// Control flow other than scf.for and scf.if is rejected.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func @while(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.while' is not supported yet: the pipeline schedules scf.for and scf.if control flow}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

func.func @region(%n: index) {
  // expected-error@+1 {{'scf.execute_region' is not supported yet: the pipeline schedules scf.for and scf.if control flow}}
  %r = scf.execute_region -> index {
    scf.yield %n : index
  }
  return
}
