// After compute-group-extraction, every kernel of examples/ gets one pipeline per
// program: elementwise kernels (add, silu_mul, broadcast_add) tile their rows to
// one vector, with the broadcast row read through (d0, d1) -> (d1); the row
// kernels (softmax, rmsnorm, layernorm, row_sum) keep each row whole for its
// reductions and run their chain of generics in one compute stage.

// RUN: ktc-opt %root/examples/add.mlir --arch toy -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ADD
// RUN: ktc-opt %root/examples/silu_mul.mlir --arch toy -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,SILU
// RUN: ktc-opt %root/examples/broadcast_add.mlir --arch spyre -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,BROADCAST
// RUN: ktc-opt %root/examples/softmax.mlir --arch toy -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,SOFTMAX
// RUN: ktc-opt %root/examples/rmsnorm.mlir --arch spyre -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,RMSNORM
// RUN: ktc-opt %root/examples/layernorm.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,LAYERNORM
// RUN: ktc-opt %root/examples/row_sum.mlir --arch toy -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ROWSUM

// CHECK:       module @local_schedule_0 {
// CHECK:         ktdf.pipeline {

// ADD:           ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>,
// SILU:          ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>,
// BROADCAST:     ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// BROADCAST:     ins(%{{.+}}, %{{.+}} : tensor<1x64xf16>, tensor<64xf16>)
// SOFTMAX:       ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 256xf16>,
// SOFTMAX-COUNT-2: iterator_types = ["parallel", "reduction"]
// SOFTMAX:       iterator_types = ["parallel", "parallel"]
// RMSNORM:       ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 256xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 256xf16>,
// RMSNORM:       iterator_types = ["parallel", "reduction"]
// RMSNORM:       math.rsqrt
// LAYERNORM:     ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 256xf16>, !ktdf.fifo.slot<"HBM" -> "VPU", 256xf16>, !ktdf.fifo.slot<"HBM" -> "VPU", 256xf16>, !ktdf.fifo.slot<"VPU" -> "HBM", 256xf16>,
// LAYERNORM-COUNT-2: iterator_types = ["parallel", "reduction"]
// ROWSUM:        ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 256xf32>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf32>,

// CHECK:         } {applicable_units = ["{{SFU|VPU}}"]}
// CHECK-NOT:     ktdf.pipeline
// CHECK-NOT:     ktdp.load
