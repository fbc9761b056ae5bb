// The number of instances comes from the device: the toy device has one sub-core
// per core and the third test chip none, so there is nothing to share out and the
// nested pipelines of basic.mlir (distributed on spyre) come out unchanged.

// RUN: ktc-opt %S/basic.mlir --arch toy > %t.toy.before
// RUN: ktc-opt %S/basic.mlir --arch toy -p parallelize-loops-across-instances > %t.toy.after
// RUN: diff %t.toy.before %t.toy.after
// RUN: ktc-opt %S/basic.mlir --arch %S/../../arch/Inputs/line4.mlir > %t.line4.before
// RUN: ktc-opt %S/basic.mlir --arch %S/../../arch/Inputs/line4.mlir -p parallelize-loops-across-instances > %t.line4.after
// RUN: diff %t.line4.before %t.line4.after
// RUN: filecheck %s < %t.toy.after

// CHECK-NOT: ktdf.parallel
// CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NOT: ktdf.parallel
