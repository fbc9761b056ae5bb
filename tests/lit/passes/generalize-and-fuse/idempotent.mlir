// Running the pass twice gives what running it once gives: what it leaves is
// generics with no fusable producer, loads, stores and empty tensors, and a store of
// a generic's result needs no copy. Shown on the inputs of this folder and on the
// softmax chain of construct-three-stage-pipeline's end-to-end tests.

// RUN: ktc-opt %S/basic.mlir -p generalize-and-fuse > %t.basic
// RUN: ktc-opt %t.basic -p generalize-and-fuse | diff %t.basic -
// RUN: ktc-opt %S/generalize.mlir -p generalize-and-fuse > %t.generalize
// RUN: ktc-opt %t.generalize -p generalize-and-fuse | diff %t.generalize -
// RUN: ktc-opt %S/select.mlir -p generalize-and-fuse > %t.select
// RUN: ktc-opt %t.select -p generalize-and-fuse | diff %t.select -
// RUN: ktc-opt %S/../construct-three-stage-pipeline/chain.mlir -p generalize-and-fuse > %t.chain
// RUN: ktc-opt %t.chain -p generalize-and-fuse | diff %t.chain -
// RUN: filecheck %s < %t.chain

// The softmax row: a fill and the maximum, a fill and the sum of exponentials, the
// quotient; five generics.
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT:     linalg.generic
