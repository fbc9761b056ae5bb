// A contraction that has its tiles keeps them: running the pass again changes nothing.

// RUN: ktc-opt %root/examples/matmul.mlir --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling > %t
// RUN: ktc-opt %t -p contraction-tiling | diff %t -
