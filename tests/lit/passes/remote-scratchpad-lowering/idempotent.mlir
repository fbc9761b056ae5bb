// Running the lowering twice gives what running it once gives: no load of another
// tile's scratchpad is left for the second run.

// RUN: ktc-opt %S/basic.mlir --arch toy -p remote-scratchpad-lowering > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p remote-scratchpad-lowering,remote-scratchpad-lowering > %t.twice
// RUN: diff %t.once %t.twice
