// Running the lowering twice gives what running it once gives: a program without
// indirect access tiles is left unchanged.

// RUN: ktc-opt %S/basic.mlir --arch toy -p indirect-access-lowering > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p indirect-access-lowering,indirect-access-lowering > %t.twice
// RUN: diff %t.once %t.twice
