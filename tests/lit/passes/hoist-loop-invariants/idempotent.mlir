// Hoisting twice is hoisting once: after the first run nothing in a loop is
// invariant any more, so the second leaves the program as it is.

// RUN: ktc-opt %S/basic.mlir --arch toy -p hoist-loop-invariants > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p hoist-loop-invariants,hoist-loop-invariants > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s --input-file %t.twice

// CHECK: dfir.program "SFU"
