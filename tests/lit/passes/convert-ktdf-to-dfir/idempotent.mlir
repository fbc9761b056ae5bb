// Lowering twice is lowering once: after the first run no stage is left, and the
// second run leaves the DataflowIR as it is; so for selects blended by min and max on
// an engine without a select instruction.

// RUN: ktc-opt %S/basic.mlir --arch toy -p convert-ktdf-to-dfir > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p convert-ktdf-to-dfir,convert-ktdf-to-dfir > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s --input-file %t.twice
// RUN: ktc-opt %S/select-blend.mlir --arch toy -p convert-ktdf-to-dfir > %t.blend.once
// RUN: ktc-opt %S/select-blend.mlir --arch toy -p convert-ktdf-to-dfir,convert-ktdf-to-dfir > %t.blend.twice
// RUN: diff %t.blend.once %t.blend.twice
// RUN: filecheck %s --input-file %t.blend.twice

// CHECK: dfir.dataflow {
// CHECK-NOT: ktdf.
