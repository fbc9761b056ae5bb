// A softmax row needs three walks over the row (max, sum of exponentials, the
// normalized output): each becomes its own loop over vectors, the load unit streams
// the row three times, and the output row leaves one vector per iteration. The f16
// max accumulates in f16; the f16 sum in f32 (each term extended), each lane rounded
// back to f16 once in the horizontal reduction.

// RUN: ktc-opt %root/examples/softmax.mlir --arch spyre -p ktir-to-schedule,reduction-loop-exposure | filecheck %s

// CHECK:       applicable_units = ["MNILU"]
// CHECK-COUNT-3: ktdf.data_transfer from %{{.*}}[0, %{{.*}} * 64] size [1, 64]
// CHECK:       applicable_units = ["L1LU"]
// CHECK:       scf.for {{.*}} -> (tensor<1x64xf16>)
// CHECK:       arith.maxnumf
// CHECK:       scf.for {{.*}} -> (tensor<1x64xf32>)
// CHECK:       math.exp
// CHECK-NEXT:  arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:  arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:       %sum = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x64xf32>) outs(%sum_init : tensor<1xf16>)
// CHECK-NEXT:  ^bb0(%[[LANE:.*]]: f32, %[[SUM:.*]]: f16):
// CHECK-NEXT:    %[[ROUNDED:.*]] = arith.truncf %[[LANE]] : f32 to f16
// CHECK-NEXT:    arith.addf %[[SUM]], %[[ROUNDED]] : f16
// CHECK:       scf.for
// CHECK:       ktdf.write_to_fifo {{.*}} : tensor<1x64xf16>
// CHECK:       } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:       applicable_units = ["SFU"]
// CHECK:       ktdf.data_transfer from {{.*}} size [1, 64] to %{{.*}}[0, %{{.*}} * 64] size [1, 64]
