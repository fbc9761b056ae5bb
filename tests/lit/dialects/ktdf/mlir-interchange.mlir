// Upstream MLIR accepts the generic form of every op, type and attribute in
// ops.mlir (as unregistered dialect IR), and what it prints back reads into ktc as
// the same IR: the custom form passes the same checks, and a second trip through
// MLIR changes nothing.

// REQUIRES: mlir
// RUN: ktc-opt %S/ops.mlir --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.once
// RUN: ktc-opt %t.once | filecheck %S/ops.mlir
// RUN: ktc-opt %t.once --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | diff %t.once -
