// The ktir-to-dfir-unoptimized pipeline is ktir-to-dfir without the schedule
// optimizations: no broadcast-promotion, double-buffering or
// parallelize-loops-across-instances runs between stage-coarsening and
// tile-size-selection, which ktir-to-dfir does run, and it still ends in DataflowIR.

// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-dfir-unoptimized --print-ir-after-all -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --check-prefix=OUT < %t
// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-dfir --print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=FULL

// CHECK: IR Dump After StageCoarsening (stage-coarsening)
// CHECK-NOT: IR Dump After BroadcastPromotion
// CHECK-NOT: IR Dump After DoubleBuffering
// CHECK-NOT: IR Dump After ParallelizeLoopsAcrossInstances
// CHECK: IR Dump After TileSizeSelection (tile-size-selection)
// CHECK-NOT: IR Dump After BroadcastPromotion
// CHECK-NOT: IR Dump After DoubleBuffering
// CHECK-NOT: IR Dump After ParallelizeLoopsAcrossInstances
// CHECK: IR Dump After ConvertKtdfToDfir (convert-ktdf-to-dfir)

// OUT: dfir.dataflow

// FULL: IR Dump After StageCoarsening (stage-coarsening)
// FULL: IR Dump After BroadcastPromotion (broadcast-promotion)
// FULL: IR Dump After DoubleBuffering (double-buffering)
// FULL: IR Dump After ParallelizeLoopsAcrossInstances (parallelize-loops-across-instances)
// FULL: IR Dump After TileSizeSelection (tile-size-selection)
