// Running the pass twice gives what running it once gives: once the loads and
// stores have become pipelines, no function stores anything any more, so the
// second run finds nothing to do (the pipelines' loops, buffers and generics are
// left as they are). Shown on basic.mlir, and with all five passes run twice on
// the program with loops and buffers and on the softmax chain.

// RUN: ktc-opt %S/basic.mlir --arch toy -p construct-three-stage-pipeline > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p construct-three-stage-pipeline,construct-three-stage-pipeline | diff %t.once -
// RUN: ktc-opt %t.once -p construct-three-stage-pipeline | diff %t.once -
// RUN: filecheck %s < %t.once
// RUN: ktc-opt %S/phases.mlir --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline > %t.phases
// RUN: ktc-opt %t.phases -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | diff %t.phases -
// RUN: ktc-opt %S/chain.mlir --arch spyre -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline > %t.chain
// RUN: ktc-opt %t.chain -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | diff %t.chain -

// CHECK-COUNT-2: ktdf.pipeline
// CHECK-NOT:     ktdf.pipeline
