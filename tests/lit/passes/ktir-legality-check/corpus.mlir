// The corpus kernels of the scheduling scope (elementwise, broadcast, reduction,
// contraction, runtime arguments, indirect access and a distributed view over device
// memory and two tiles' scratchpads, views whose strides are given at launch) pass the
// check on every device.

// REQUIRES: corpus
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/vector_add_ktir.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=ADD
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/vector_add_dynamic_ktir.mlir --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check | filecheck %s --check-prefix=DYNAMIC
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir --arch spyre -p ktir-legality-check | filecheck %s --check-prefix=SOFTMAX
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=LAYERNORM
// RUN: ktc-opt %corpus/ktir-cpu/rfc/add-with-control-flow.mlir --arch spyre -p ktir-legality-check | filecheck %s --check-prefix=CONTROL
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/matmul_fwd_ktir.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=MATMUL
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/sdpa_2d.mlir --arch spyre -p ktir-legality-check | filecheck %s --check-prefix=SDPA
// RUN: ktc-opt %corpus/ktir-mlir-frontend/add-with-control-flow-runtime-arg.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=RUNTIME
// RUN: ktc-opt %corpus/ktir-mlir-frontend/runtime-arg-extract.mlir --arch spyre -p ktir-legality-check | filecheck %s --check-prefix=EXTRACT
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/indexed_add.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=INDEXED
// RUN: ktc-opt %corpus/ktir-cpu/rfc/distributed-view-copy.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=SCRATCHPADS
// RUN: ktc-opt %corpus/ktir-cpu/rfc/distributed-view-copy-dynamic.mlir --arch toy -p ktir-legality-check | filecheck %s --check-prefix=DISTRIBUTED

// ADD:         func.func @add_kernel(
// ADD:         arith.addf {{.*}} : tensor<128xf16>
// DYNAMIC:     func.func @add_kernel_dynamic(
// DYNAMIC:     arith.addf {{.*}} : tensor<1024xf32>
// SOFTMAX:     func.func @softmax_kernel(
// SOFTMAX:     linalg.reduce { arith.maxnumf }
// LAYERNORM:   func.func @_layer_norm_fwd_fused(
// LAYERNORM:   scf.for {{.*}} iter_args(
// CONTROL:     func.func @add()
// CONTROL:     linalg.add
// MATMUL:      func.func @matmul_kernel(
// MATMUL:      linalg.matmul
// SDPA:        func.func @sdpa_kernel_2d(
// SDPA:        linalg.transpose
// SDPA:        linalg.matmul
// RUNTIME:     func.func @add(%M_symb: !ktdp.runtime_arg<index, granularity=32, upperbound=300>, %A_start_address_symb: !ktdp.runtime_arg<index>) {
// RUNTIME:     ktdp.runtime_arg_extract value from %M_symb
// EXTRACT:     func.func @extract_all(
// EXTRACT:     ktdp.runtime_arg_extract upperbound from
// EXTRACT:     func.func @extract_i32_value(
// INDEXED:     func.func @indexed_add_kernel(
// INDEXED:     ktdp.construct_indirect_access_tile
// SCRATCHPADS: func.func @distributed_view_copy()
// SCRATCHPADS: ktdp.construct_distributed_memory_view
// DISTRIBUTED: func.func @distributed_view_copy_dynamic(
// DISTRIBUTED: ktdp.construct_memory_view %a0_ptr, sizes: [64, %s0], strides: [%s0, 1]
