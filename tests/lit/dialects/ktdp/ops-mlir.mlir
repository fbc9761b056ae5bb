// The generic form of everything in ops.mlir is accepted by real MLIR as unregistered
// ops, types and attributes, and comes back through ktc-opt as ops.mlir's checks expect.
// REQUIRES: mlir
// RUN: ktc-opt %S/ops.mlir --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %S/ops.mlir
