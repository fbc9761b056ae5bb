// The ktir-to-dfir-unoptimized pipeline is ktir-to-dfir without the schedule
// optimizations: no share-over-ring or reuse-loaded-tiles after contraction-pipeline,
// no broadcast-promotion, double-buffering or parallelize-loops-across-instances runs
// between stage-coarsening and tile-size-selection, and no hoist-loop-invariants or unroll-short-loops after
// convert-ktdf-to-dfir, which ktir-to-dfir does run, and it still ends in DataflowIR,
// lowered serially: DMA-in waits for DMA-out's signal before the next tile (the full
// pipeline has no signal between the two).

// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-dfir-unoptimized --print-ir-after-all -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --check-prefix=OUT < %t
// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-dfir --print-ir-after-all -o %t.full 2>&1 | filecheck %s --check-prefix=FULL
// RUN: filecheck %s --check-prefix=FULL-OUT < %t.full

// CHECK: IR Dump After ContractionPipeline (contraction-pipeline)
// CHECK-NOT: IR Dump After ShareOverRing
// CHECK-NOT: IR Dump After ReuseLoadedTiles
// CHECK: IR Dump After StageCoarsening (stage-coarsening)
// CHECK-NOT: IR Dump After BroadcastPromotion
// CHECK-NOT: IR Dump After DoubleBuffering
// CHECK-NOT: IR Dump After ParallelizeLoopsAcrossInstances
// CHECK: IR Dump After TileSizeSelection (tile-size-selection)
// CHECK-NOT: IR Dump After BroadcastPromotion
// CHECK-NOT: IR Dump After DoubleBuffering
// CHECK-NOT: IR Dump After ParallelizeLoopsAcrossInstances
// CHECK: IR Dump After ConvertKtdfToDfir (convert-ktdf-to-dfir)
// CHECK-NOT: IR Dump After HoistLoopInvariants
// CHECK-NOT: IR Dump After UnrollShortLoops

// OUT: dfir.dataflow
// OUT: dfir.program "MNILU"
// OUT: dfir.sync_recv %{{.*}} id [[SERIAL:[0-9]+]] : !dfir.unit<"MNISU">
// OUT: dfir.program "MNISU"
// OUT: dfir.sync_send %{{.*}} id [[SERIAL]] : !dfir.unit<"MNILU">

// FULL: IR Dump After ContractionPipeline (contraction-pipeline)
// FULL: IR Dump After ShareOverRing (share-over-ring)
// FULL: IR Dump After ReuseLoadedTiles (reuse-loaded-tiles)
// FULL: IR Dump After StageCoarsening (stage-coarsening)
// FULL: IR Dump After BroadcastPromotion (broadcast-promotion)
// FULL: IR Dump After DoubleBuffering (double-buffering)
// FULL: IR Dump After ParallelizeLoopsAcrossInstances (parallelize-loops-across-instances)
// FULL: IR Dump After TileSizeSelection (tile-size-selection)
// FULL: IR Dump After ConvertKtdfToDfir (convert-ktdf-to-dfir)
// FULL: IR Dump After HoistLoopInvariants (hoist-loop-invariants)
// FULL: IR Dump After UnrollShortLoops (unroll-short-loops)

// FULL-OUT: dfir.program "MNILU"
// FULL-OUT-NOT: !dfir.unit<"MNISU">
// FULL-OUT: dfir.program "L1LU"
