// Once scheduled, no contraction has tiles left to schedule (the matrix unit's
// products inside the pipeline have none): running the pass again changes nothing,
// on the matrix unit (toy) and on the SIMD engine (the third chip).

// RUN: ktc-opt %root/examples/matmul.mlir --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline > %t
// RUN: ktc-opt %t -p contraction-pipeline | diff %t -
// RUN: ktc-opt %root/examples/matmul.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline > %t.line4
// RUN: ktc-opt %t.line4 -p contraction-pipeline | diff %t.line4 -
