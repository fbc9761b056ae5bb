// Running the lowering twice gives what running it once gives: a function without
// inter-tile ops is left unchanged.

// RUN: ktc-opt %S/basic.mlir --arch toy -p inter-tile-reduce-lowering > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p inter-tile-reduce-lowering,inter-tile-reduce-lowering > %t.twice
// RUN: diff %t.once %t.twice
