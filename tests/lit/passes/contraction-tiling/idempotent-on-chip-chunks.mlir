// Tiles feeding a computed A chunks of several rows by part of a row survive printing
// and parsing, and the pass run again changes nothing.

// RUN: ktc-opt %S/../contraction-pipeline/on-chip-chunks.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling > %t
// RUN: ktc-opt %t -p contraction-tiling | diff %t -
// RUN: filecheck %s < %t
// CHECK: chunk = 64 : i64, {{.*}} k = 512 : i64, m = 8 : i64
