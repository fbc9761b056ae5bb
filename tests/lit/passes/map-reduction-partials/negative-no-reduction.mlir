// Without a streamed reduction loop (here before reduction-loop-exposure ran) the
// pass changes nothing.

// RUN: ktc-opt %root/examples/row_sum.mlir --arch toy -p ktir-to-schedule > %t.before
// RUN: ktc-opt %t.before -p map-reduction-partials > %t.after
// RUN: diff %t.before %t.after
