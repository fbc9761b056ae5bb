// Unrolling twice is unrolling once: no loop is left, and each moved FIFO write
// already has a load between its vector's load and itself.

// RUN: ktc-opt %S/basic.mlir --arch toy -p unroll-short-loops > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p unroll-short-loops,unroll-short-loops > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s --input-file %t.twice

// CHECK-NOT: scf.for
