// A budget smaller than one vector (4 f32 lanes, 16 bytes, on the toy device) cannot
// be met by any cut into whole vectors.

// RUN: not ktc-opt %root/examples/row_sum.mlir --arch toy -p 'ktir-to-schedule,stage-coarsening,reduction-dim-chunking{chunk-size-threshold=8}' 2>&1 | filecheck %s

// CHECK: row_sum.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the row of this reduction (256 elements, 1024 bytes staged) exceeds the chunk budget of 8 bytes, and no cut into whole vectors of 4 elements fits it
