// num-chunks forces chunking of a row that fits: row_sum's 256-element rows in 4
// chunks of 64, here on the single-level pipeline ktir-to-schedule builds (no
// stage-coarsening), where the load, feed, compute, drain and store stages are all
// stages of one pipeline.

// RUN: ktc-opt %root/examples/row_sum.mlir --arch toy -p 'ktir-to-schedule,reduction-dim-chunking{num-chunks=4}' | filecheck %s

// CHECK:      %[[RESULT:.*]] = memref.alloc() : memref<1xf32, "L1">
// CHECK-NEXT: %[[LATER:.*]] = memref.alloc() : memref<1x64xf32, "L1">
// CHECK-NEXT: ktdf.pipeline {
// CHECK-NEXT:   ktdf.private -> (memref<1x64xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:        ktdf.data_transfer from %x_tile[%{{.*}}, 0] size [1, 64]
// CHECK-NOT:    MNISU
// CHECK:      scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:          ktdf.data_transfer from %x_tile[%{{.*}}, %[[C]] * 64] size [1, 64] to %[[LATER]]
// CHECK:          ktdf.data_transfer from %[[RESULT]][0] size [1] to %{{.*}} size [1] : memref<1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
// CHECK:      } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT: ktdf.pipeline {
// CHECK-NEXT:   ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:     ktdf.data_transfer from %[[RESULT]][0] size [1] to %y_tile
