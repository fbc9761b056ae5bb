// Running the pass twice gives what running it once gives: no distributed view is
// left to rewrite.

// RUN: ktc-opt %S/basic.mlir --arch toy -p split-distributed-views > %t.once
// RUN: ktc-opt %t.once -p split-distributed-views | diff %t.once -
