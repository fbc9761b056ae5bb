// A grid that splits the reduced dimension over cores: tiles (0, 0) and (0, 1) sum
// different halves of rows 0 and 1 into the same two results. Their partial sums
// would have to be combined across cores; the pass says so at the reduction.

// RUN: not ktc-opt %S/Inputs/split_row_sum.mlir --arch toy -p ktir-to-schedule,stage-coarsening,reduction-dim-chunking 2>&1 | filecheck %s

// CHECK: split_row_sum.mlir:35:{{[0-9]+}}: error: tiles [0, 0] and [0, 1] of grid [2, 2] reduce different parts of the same rows into the same results (device-memory offset 0): the grid splits the reduced dimension over cores
