// num-chunks must cut the row into whole vectors: 256 f32 are 64 vectors of 4 lanes
// on the toy device, which 3 chunks do not divide.

// RUN: not ktc-opt %root/examples/row_sum.mlir --arch toy -p 'ktir-to-schedule,stage-coarsening,reduction-dim-chunking{num-chunks=3}' 2>&1 | filecheck %s

// CHECK: row_sum.mlir:{{[0-9]+}}:{{[0-9]+}}: error: num-chunks=3 does not cut a row of 256 elements into whole vectors of 4
