// Running the pass twice gives what running it once gives: the later loops then load
// a scratchpad buffer, no tile of device memory, and the first loop's load has no
// later reader of device memory left.

// RUN: ktc-opt %S/basic.mlir --arch toy -p reuse-loaded-tiles > %t
// RUN: ktc-opt %t -p reuse-loaded-tiles | diff %t -
// RUN: filecheck %s < %t

// CHECK-COUNT-2: memref.alloc
// CHECK-NOT:     memref.alloc
