// Upstream MLIR accepts the generic form of what the pass builds (it verifies the
// linalg, memref, affine and scf ops, and keeps ktdf and ktdp as unregistered
// ops), and what it prints back reads into ktc and through MLIR again unchanged.
// Shown on the add, the softmax chain and the program with loops and buffers.

// REQUIRES: mlir
// RUN: ktc-opt %S/sequence.mlir --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.basic
// RUN: ktc-opt %t.basic --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | diff %t.basic -
// RUN: filecheck %s < %t.basic
// RUN: ktc-opt %S/chain.mlir --arch spyre -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.chain
// RUN: ktc-opt %t.chain --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | diff %t.chain -
// RUN: ktc-opt %S/phases.mlir --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.phases
// RUN: ktc-opt %t.phases --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | diff %t.phases -

// CHECK:     "memref.reinterpret_cast"
// CHECK:     "scf.for"
// CHECK:     "scf.for"
// CHECK:     "ktdf.pipeline"() ({
// CHECK:     "ktdf.data_transfer"
// CHECK:     "ktdf.stage"({{.*}}applicable_units = ["SFU"]
// CHECK:     "linalg.generic"
// CHECK:     {loop_type = #ktdf.loop_type<parallel_loop>}
