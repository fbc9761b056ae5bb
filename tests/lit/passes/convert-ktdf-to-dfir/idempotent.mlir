// Lowering twice is lowering once: after the first run no stage is left, and the
// second run leaves the DataflowIR as it is.

// RUN: ktc-opt %S/basic.mlir --arch toy -p convert-ktdf-to-dfir > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p convert-ktdf-to-dfir,convert-ktdf-to-dfir > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s --input-file %t.twice

// CHECK: dfir.dataflow {
// CHECK-NOT: ktdf.
