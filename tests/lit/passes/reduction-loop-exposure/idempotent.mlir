// Streamed reductions are already one vector wide: a second run changes nothing.

// RUN: ktc-opt %root/examples/rmsnorm.mlir --arch toy -p ktir-to-schedule,reduction-loop-exposure > %t.once
// RUN: ktc-opt %t.once -p reduction-loop-exposure > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.once

// CHECK: reduction_loop
