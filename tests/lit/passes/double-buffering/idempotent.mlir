// A second run changes nothing: a pipeline that rotates already (modulo) is left
// alone, and its staging buffers are no longer private to it. The input is the
// nested pipelines of nested.mlir.

// RUN: ktc-opt %S/nested.mlir --arch toy -p double-buffering > %t.once
// RUN: ktc-opt %S/nested.mlir --arch toy -p double-buffering,double-buffering > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.twice

// CHECK-COUNT-4: memref.alloc(
// CHECK-NOT:     memref.alloc(
// CHECK:         ktdf.buffer_phase
// CHECK-NOT:     ktdf.buffer_phase
