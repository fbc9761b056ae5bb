// A row of 16384 f32 (64 KiB) is more than the toy device's chunk budget (its 64 KiB
// scratchpad / 8), so the reduction is cut into 8 chunks of 2048: the result buffer
// is hoisted out of the pipeline, the first chunk runs in the original pipeline (no
// store stage), the later chunks run in a reduction loop that loads chunk %c into a
// row buffer of their own, allocated before the first chunk's pipeline (so that the
// two never share space), and combines each row's result with the partial reloaded
// through a new FIFO slot, and the store to device memory is a pipeline of its own
// after the loop.

// RUN: ktc-opt %S/Inputs/long_row_sum.mlir --arch toy -p ktir-to-schedule,stage-coarsening,reduction-dim-chunking | filecheck %s

// CHECK:      scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:        %[[RESULT:.*]] = memref.alloc(%{{.*}}) : memref<?x1xf32, "L1">
// CHECK-NEXT:   %[[LATER:.*]] = memref.alloc(%{{.*}}) : memref<?x1x2048xf32, "L1">
// CHECK-NEXT:   ktdf.pipeline {
// CHECK-NEXT:     ktdf.private -> (memref<?x1x2048xf32, "L1">, !ktdf.token, !ktdf.token)
// CHECK:          ktdf.data_transfer from %x_tile[%{{.*}}, 0] size [{{.*}}, 2048] to %{{.*}} size [{{.*}}, 1, 2048]
// CHECK:          } {applicable_units = ["MNILU"]}
// CHECK:          ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 2048xf32>
// CHECK:          ktdf.read_from_fifo %{{.*}} -> tensor<1x2048xf32>
// CHECK:          ktdf.write_to_fifo %sums
// CHECK:          ktdf.data_transfer from %{{.*}} size [1] to %[[RESULT]][%{{.*}}, 0] size [1, 1]
// CHECK-NOT:      MNISU
// CHECK:        %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[CHUNKS:.*]] = arith.constant 8 : index
// CHECK-NEXT:   scf.for %[[C:.*]] = %[[ONE]] to %[[CHUNKS]] step %[[ONE]] {
// CHECK-NEXT:     ktdf.pipeline {
// CHECK:            ktdf.data_transfer from %x_tile[%{{.*}}, %[[C]] * 2048] size [{{.*}}, 2048] to %[[LATER]][0, 0, 0]
// CHECK:            scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:              ktdf.private -> ({{.*}}, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>)
// CHECK:              ktdf.stage
// CHECK-NEXT:           ktdf.data_transfer from %{{.*}} size [1, 1, 2048] to %{{.*}} size [1, 2048]
// CHECK-NEXT:           ktdf.data_transfer from %[[RESULT]][%[[ROW]], 0] size [1, 1] to %[[RELOAD:.*]] size [1]
// CHECK-NEXT:         } {applicable_units = ["L1LU"]}
// CHECK:              %sums = linalg.generic
// CHECK:              %[[PARTIAL:.*]] = ktdf.read_from_fifo %[[RELOAD]] : <"L1LU" -> "SFU", 1xf32> -> tensor<1xf32>
// CHECK-NEXT:         %[[EMPTY:.*]] = tensor.empty() : tensor<1xf32>
// CHECK-NEXT:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PARTIAL]], %sums : tensor<1xf32>, tensor<1xf32>) outs(%[[EMPTY]] : tensor<1xf32>)
// CHECK:                arith.addf
// CHECK:              ktdf.write_to_fifo %[[SUM]]
// CHECK:              ktdf.data_transfer from %{{.*}} size [1] to %[[RESULT]][%[[ROW]], 0] size [1, 1]
// CHECK:        } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:   ktdf.pipeline {
// CHECK-NEXT:     ktdf.stage depends_in(none) depends_out(none) {
// CHECK:            ktdf.data_transfer from %[[RESULT]][{{.*}}] size [{{.*}}] to %y_tile
// CHECK:          } {applicable_units = ["MNISU"]}
