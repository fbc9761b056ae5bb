// Running the pass twice gives what running it once gives: the tiles of a tiled
// chain start at the loop variables or at fixed positions, away from the origin of
// their views, and such a chain is left alone. Shown on the inputs of this folder.

// RUN: ktc-opt %S/basic.mlir --arch toy -p tile-to-simd-width > %t.basic
// RUN: ktc-opt %t.basic -p tile-to-simd-width | diff %t.basic -
// RUN: ktc-opt %S/basic.mlir --arch toy -p tile-to-simd-width,tile-to-simd-width | diff %t.basic -
// RUN: ktc-opt %S/basic-2.mlir --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width > %t.basic2
// RUN: ktc-opt %t.basic2 -p tile-to-simd-width | diff %t.basic2 -
// RUN: ktc-opt %S/row-slices.mlir --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width > %t.slices
// RUN: ktc-opt %t.slices -p tile-to-simd-width | diff %t.slices -
// RUN: ktc-opt %S/narrow-rows.mlir --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width > %t.narrow
// RUN: ktc-opt %t.narrow -p tile-to-simd-width | diff %t.narrow -
// RUN: filecheck %s < %t.narrow

// One loop nest per chain, not a second one inside it:
// CHECK-COUNT-5: {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NOT:     loop_type
