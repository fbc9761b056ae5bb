// On the toy device (4 f32 lanes) the 256-element row of row_sum is streamed: the
// load unit feeds one 4-lane slice per iteration, the compute stage accumulates a
// vector partial in a reduction loop seeded with 0 and reduces that one vector
// horizontally after the loop, then writes the row's sum once.

// RUN: ktc-opt %root/examples/row_sum.mlir --arch toy -p ktir-to-schedule,reduction-loop-exposure | filecheck %s

// CHECK:      ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>
// CHECK:      applicable_units = ["MNILU"]
// CHECK:      %[[TRIPS:.*]] = arith.constant 64 : index
// CHECK:      scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS]] step
// CHECK-NEXT:   ktdf.data_transfer from %{{.*}}[0, %[[K]] * 4] size [1, 4] to %{{.*}} size [1, 4]
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:      %[[SEED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK:      %[[PARTIAL:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[SEED]]) -> (tensor<1x4xf32>) {
// CHECK-NEXT:   %[[SLICE:.*]] = ktdf.read_from_fifo {{.*}} -> tensor<1x4xf32>
// CHECK-NEXT:   %[[STEP:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[SLICE]] : tensor<1x4xf32>) outs(%[[ACC]] : tensor<1x4xf32>)
// CHECK:        scf.yield %[[STEP]]
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[PARTIAL]] : tensor<1x4xf32>)
// CHECK:      ktdf.write_to_fifo %[[SUM]], {{.*}} : tensor<1xf32>
