// Running the pass twice gives what running it once gives: a canonical contraction
// generic is left as it is.

// RUN: ktc-opt %S/basic.mlir --arch toy -p normalize-contractions > %t
// RUN: ktc-opt %t -p normalize-contractions | diff %t -
