// Tiles feeding a computed A a part of a row at a time survive printing and parsing,
// and the pass run again changes nothing.

// RUN: ktc-opt %S/../contraction-pipeline/on-chip-rows.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling > %t
// RUN: ktc-opt %t -p contraction-tiling | diff %t -
// RUN: filecheck %s < %t
// CHECK: chunk = 64 : i64, {{.*}} m = 1 : i64, {{.*}} resident = "rhs"
