// Promoting twice is promoting once: the hoisted transfer writes a buffer outside
// any ktdf.private, so it is no candidate again. layernorm has two such
// transfers (gamma and beta); both move once.

// RUN: ktc-opt %S/../../../../examples/layernorm.mlir -p 'ktir-to-schedule,stage-coarsening,broadcast-promotion' --arch spyre > %t.once
// RUN: ktc-opt %t.once -p broadcast-promotion > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.twice

// CHECK-COUNT-2: ktdf.stage depends_in(none) depends_out(none) {
// CHECK:         scf.for
