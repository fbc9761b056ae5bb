// After compute-group-extraction, every corpus kernel in scope gets its pipelines on
// each device: vector_add (static and dynamic sizes, f16 and f32) and
// add-with-control-flow one elementwise pipeline; softmax one pipeline whose
// compute stage holds the chain of reductions and the division; layernorm's
// program, with its two accumulation loops, eight pipelines in phases joined by
// scratchpad buffers, the accumulation loops marked as reductions. No load or store
// of KTIR is left.

// REQUIRES: corpus
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/vector_add_ktir.mlir --arch toy -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=ADD
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/vector_add_dynamic_ktir.mlir --arch spyre -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=DYN
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=SOFTMAX
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir --arch toy -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline > %t.layernorm
// RUN: filecheck %s --check-prefix=LAYERNORM < %t.layernorm
// RUN: filecheck %s --check-prefix=PIPELINES < %t.layernorm
// RUN: ktc-opt %corpus/ktir-cpu/rfc/add-with-control-flow.mlir --arch spyre -p compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=CONTROL

// ADD:           ktdf.data_transfer from %x_tile[%{{.+}}] size [8] to %{{.+}} size [8] : memref<128xf16, strided<[1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
// ADD:           linalg.generic
// ADD-NOT:       ktdp.load
// ADD-NOT:       ktdp.store

// DYN:           %x_view = ktdp.construct_memory_view %x_ptr, sizes: [%n], {{.*}} : memref<?xf32, "DDR">
// DYN:           %x_tile = memref.reinterpret_cast %x_view to offset: [%x_tile_offset], sizes: [1024], strides: [1] : memref<?xf32, "DDR"> to memref<1024xf32, strided<[1], offset: ?>, "DDR">
// DYN:           ktdf.data_transfer from %x_tile[%{{.+}}] size [32] to %{{.+}} size [32] : memref<1024xf32, strided<[1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 32xf32>
// DYN-NOT:       ktdp.store

// SOFTMAX:       ktdf.data_transfer from %input_acc[%{{.+}}, 0] size [1, 1024] to %{{.+}} size [1, 1024] : memref<1x1024xf16, strided<[1024, 1], offset: ?>, "HBM">, !ktdf.fifo.slot<"HBM" -> "VPU", 1024xf16>
// SOFTMAX-COUNT-2: iterator_types = ["parallel", "reduction"]
// SOFTMAX:       iterator_types = ["parallel", "parallel"]
// SOFTMAX:       } {applicable_units = ["VPU"]}
// SOFTMAX-NOT:   ktdf.pipeline

// LAYERNORM-COUNT-4: memref.alloc() : memref<{{1x1024|1}}xf16, "L1">
// LAYERNORM-COUNT-2: } {loop_type = #ktdf.loop_type<reduction_loop>}
// LAYERNORM-NOT: ktdp.load
// LAYERNORM-NOT: ktdp.store

// PIPELINES-COUNT-8: ktdf.pipeline {
// PIPELINES-NOT:     ktdf.pipeline {

// CONTROL:       scf.for %i = %c0 to %tile_size step %c1 {
// CONTROL-NEXT:    func.call @local_schedule_0(
// CONTROL:       ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CONTROL-NOT:   ktdp.store
