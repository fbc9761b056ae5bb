// A grid that splits the reduced dimension over cores: tiles (0, 0) and (0, 1) sum
// different halves of rows 0 and 1 into the same two results. Their stores race (KTIR
// keeps the last tile's partial), so the pass refuses at the reduction and names
// ktdp.inter_tile_reduce, the way to ask for combined partials.

// RUN: not ktc-opt %S/Inputs/split_row_sum.mlir --arch toy -p ktir-to-schedule,stage-coarsening,reduction-dim-chunking 2>&1 | filecheck %s

// CHECK: split_row_sum.mlir:35:{{[0-9]+}}: error: tiles [0, 0] and [0, 1] of grid [2, 2] reduce different parts of the same rows into the same results (device-memory offset 0): the grid splits the reduced dimension over cores
// CHECK-SAME: their stores race (KTIR keeps the last tile's partial), and combining partials across cores is asked with ktdp.inter_tile_reduce, which is not scheduled yet; give each tile whole rows
