// The generic form of the DataflowIR kernel in ops.mlir parses and verifies in real
// MLIR (as unregistered ops) and comes back through ktc-opt to the same custom assembly.

// REQUIRES: mlir
// RUN: ktc-opt %S/ops.mlir --print-op-generic \
// RUN:   | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic \
// RUN:   | ktc-opt | filecheck %S/ops.mlir
