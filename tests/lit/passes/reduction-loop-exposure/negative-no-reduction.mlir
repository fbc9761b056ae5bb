// An elementwise kernel has no reduction: the pass leaves it exactly as it was.

// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-schedule > %t.before
// RUN: ktc-opt %t.before -p reduction-loop-exposure > %t.after
// RUN: diff %t.before %t.after
