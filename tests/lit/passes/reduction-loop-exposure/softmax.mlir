// A softmax row needs three walks over the row (max, sum of exponentials, the
// normalized output): each becomes its own loop over vectors, the load unit streams
// the row three times, and the output row leaves one vector per iteration.

// RUN: ktc-opt %root/examples/softmax.mlir --arch spyre -p ktir-to-schedule,reduction-loop-exposure | filecheck %s

// CHECK:       applicable_units = ["MNILU"]
// CHECK-COUNT-3: ktdf.data_transfer from %{{.*}}[0, %{{.*}} * 64] size [1, 64]
// CHECK:       applicable_units = ["L1LU"]
// CHECK:       scf.for {{.*}} -> (tensor<1x64xf16>)
// CHECK:       arith.maxnumf
// CHECK:       scf.for {{.*}} -> (tensor<1x64xf16>)
// CHECK:       math.exp
// CHECK:       scf.for
// CHECK:       ktdf.write_to_fifo {{.*}} : tensor<1x64xf16>
// CHECK:       } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:       applicable_units = ["SFU"]
// CHECK:       ktdf.data_transfer from {{.*}} size [1, 64] to %{{.*}}[0, %{{.*}} * 64] size [1, 64]
