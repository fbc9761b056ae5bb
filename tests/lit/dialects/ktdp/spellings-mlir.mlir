// The generic form of what spellings.mlir's older and shorter spellings read as is
// accepted by real MLIR as unregistered ops, types and attributes, and comes back
// through ktc-opt as spellings.mlir's checks expect.
// REQUIRES: mlir
// RUN: ktc-opt %S/spellings.mlir --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %S/spellings.mlir
