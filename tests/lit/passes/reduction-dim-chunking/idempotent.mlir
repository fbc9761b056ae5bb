// Chunks already fit the budget: a second run changes nothing.

// RUN: ktc-opt %S/Inputs/long_row_sum.mlir --arch toy -p ktir-to-schedule,stage-coarsening,reduction-dim-chunking > %t.once
// RUN: ktc-opt %t.once -p reduction-dim-chunking > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.once

// CHECK:     reduction_loop
// CHECK-NOT: reduction_loop
