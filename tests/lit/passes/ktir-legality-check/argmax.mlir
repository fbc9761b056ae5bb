// On line4, whose VPU has no compare or select instruction, an argmax passes
// unchanged: its compares and selects become adds, multiplies and extrema
// (normalize-select-combiners), in a linalg.reduce of values and f32 column numbers
// split over two tiles per row and in the inter_tile_reduce combiner of their
// (value, index) partials.

// RUN: ktc-opt %S/../../../e2e/inputs/split_argmax.mlir --arch %S/../../arch/Inputs/line4.mlir > %t.before
// RUN: ktc-opt %S/../../../e2e/inputs/split_argmax.mlir --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

// CHECK: linalg.reduce ins(%values, %columns : tensor<2x128xf16>, tensor<2x128xf32>)
// CHECK: ktdp.inter_tile_reduce
// CHECK: arith.andi %equal, %before : tensor<2xi1>
