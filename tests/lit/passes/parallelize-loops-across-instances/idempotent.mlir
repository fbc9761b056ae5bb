// A second run changes nothing: loops inside a ktdf.parallel are never distributed
// again, and the rest was not distributable the first time. The input is
// basic.mlir.

// RUN: ktc-opt %S/basic.mlir --arch spyre -p parallelize-loops-across-instances > %t.once
// RUN: ktc-opt %S/basic.mlir --arch spyre -p parallelize-loops-across-instances,parallelize-loops-across-instances > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.twice

// CHECK-COUNT-1: ktdf.parallel (
// CHECK-NOT:     ktdf.parallel (
