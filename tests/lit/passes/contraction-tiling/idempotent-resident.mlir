// Tiles that keep an operand resident survive printing and parsing, and the pass run
// again changes nothing.

// RUN: ktc-opt %S/resident.mlir --arch toy -p normalize-contractions,contraction-tiling > %t
// RUN: ktc-opt %t -p contraction-tiling | diff %t -
// RUN: filecheck %s < %t
// CHECK: resident = "rhs"
// CHECK: resident = "lhs"
