// A shared copy is marked: running the pass again changes nothing.

// RUN: ktc-opt %S/basic.mlir --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline,share-over-ring > %t
// RUN: ktc-opt %t -p share-over-ring | diff %t -
