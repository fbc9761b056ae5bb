// A device imported from a file that imports it back is an import cycle.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK: Inputs/cycle-b.mlir:3:1: error: import cycle: import-cycle.mlir -> cycle-b.mlir -> import-cycle.mlir
// CHECK-NOT: Traceback

ktdf_arch.device @a import("Inputs/cycle-b.mlir")
