// The ktir-to-schedule pipeline with --print-ir-after-all shows the program split,
// the fused compute, the strided views, the loops over tiles, the three-stage
// pipeline and the expanded path as separate dumps, in that order, and ends in a
// schedule that verify-schedule accepts.

// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-schedule --print-ir-after-all -o %t 2>&1 | filecheck %s

// CHECK: IR Dump After {{.*}} (ktir-legality-check)
// CHECK: IR Dump After ComputeGroupExtraction (compute-group-extraction)
// CHECK: module @local_schedule_0
// CHECK-NOT: ktdf.pipeline
// CHECK: IR Dump After MaterializePhaseBuffers (materialize-phase-buffers)
// CHECK: IR Dump After GeneralizeAndFuse (generalize-and-fuse)
// CHECK: linalg.generic
// CHECK: IR Dump After LowerKtdpViews (lower-ktdp-views)
// CHECK: memref.reinterpret_cast
// CHECK: IR Dump After TileToSimdWidth (tile-to-simd-width)
// CHECK: {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NOT: ktdf.pipeline
// CHECK: IR Dump After ConstructThreeStagePipeline (construct-three-stage-pipeline)
// CHECK: ktdf.pipeline
// CHECK: !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// CHECK: IR Dump After PathExpansion (path-expansion)
// CHECK: "L1LU" -> "SFU"
// CHECK: applicable_units = ["MNILU"]
// CHECK: applicable_units = ["L1LU"]
// CHECK: applicable_units = ["SFU"]
// CHECK: applicable_units = ["L1SU"]
// CHECK: applicable_units = ["MNISU"]
// CHECK: IR Dump After VerifySchedule (verify-schedule)
