// Running the pass twice gives what running it once gives: no reshape is left.

// RUN: ktc-opt %S/basic.mlir --arch toy -p stage-reshaped-tiles > %t
// RUN: ktc-opt %t -p stage-reshaped-tiles | diff %t -
