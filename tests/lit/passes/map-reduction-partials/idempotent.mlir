// Partials already in SFU_REG are left alone by a second run.

// RUN: ktc-opt %root/examples/row_sum.mlir --arch toy -p ktir-to-schedule,reduction-loop-exposure,map-reduction-partials > %t.once
// RUN: ktc-opt %t.once -p map-reduction-partials > %t.twice
// RUN: diff %t.once %t.twice
