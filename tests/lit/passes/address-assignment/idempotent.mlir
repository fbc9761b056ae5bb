// Assigning addresses again gives the same addresses: a second run prints what
// the first did.

// RUN: ktc-opt %S/basic.mlir --arch toy -p address-assignment > %t
// RUN: ktc-opt %t -p address-assignment | diff %t -
// RUN: ktc-opt %S/copies.mlir --arch spyre -p address-assignment > %t.copies
// RUN: ktc-opt %t.copies -p address-assignment | diff %t.copies -
