// --help describes ktc-opt, lists only flags that work, and ends with ktc's passes and
// named pipelines, a line (or a wrapped paragraph) each; xDSL's own passes are behind
// --list-passes, after ktc's. xDSL's flags that ktc-opt would ignore are gone.

// RUN: ktc-opt --help | filecheck %s
// RUN: not ktc-opt --print-between-passes %s 2>&1 | filecheck %s --check-prefix=GONE
// RUN: not ktc-opt --syntax-highlight %s 2>&1 | filecheck %s --check-prefix=GONE
// RUN: ktc-opt --list-passes | filecheck %s --check-prefix=LIST

// CHECK:      usage: ktc-opt
// CHECK:      ktc-opt reads MLIR (KTIR, ScheduleIR, DataflowIR, arch files)
// CHECK-NOT:  --print-between-passes
// CHECK-NOT:  --syntax-highlight
// CHECK-NOT:  --parsing-diagnostics
// CHECK-NOT:  --print-no-properties
// CHECK-NOT:  --target
// CHECK:      --print-ir-after-all, --mlir-print-ir-after-all
// CHECK:      --time-passes, --mlir-timing
// CHECK:      ktc's passes (-p NAME):
// CHECK-NEXT:   lower-parallel-loops {{ +}}An scf.parallel or scf.forall is a nest of scf.for loops
// CHECK-NEXT:   ktir-legality-check {{ +}}Is this KTIR something the pipeline compiles?
// CHECK:        convert-ktdf-to-dfir {{ +}}A scheduled ScheduleIR program becomes DataflowIR
// CHECK:      named pipelines (-p NAME):
// CHECK-NEXT:   ktir-to-schedule {{ +}}{{[0-9]+}} passes: apply-arch-patterns, lower-parallel-loops, fold-
// CHECK:        ktir-to-dfir {{ +}}{{[0-9]+}} passes:
// CHECK:      ktc-opt --list-passes lists them.

// GONE: error: unrecognized arguments: --

// LIST:      ktc's passes (-p NAME):
// LIST-NEXT:   lower-parallel-loops
// LIST-NEXT:   ktir-legality-check
// LIST:      xDSL's passes (-p NAME):
// LIST:        canonicalize
// LIST-NOT:    ktir-legality-check
