// REQUIRES: corpus
// The KTIR corpus kernels that spell upstream ops the way xDSL alone cannot read
// (short-form linalg.reduce in softmax, layernorm and sdpa; a bare iter_args result
// type in layernorm) read, print in MLIR's spelling, read back to the same text, and
// their generic form is accepted by real mlir-opt.

// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir | filecheck %s --check-prefix=SOFTMAX
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir | filecheck %s --check-prefix=LAYERNORM
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/sdpa_2d.mlir | filecheck %s --check-prefix=SDPA
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir > %t.mlir
// RUN: ktc-opt %t.mlir | diff %t.mlir -
// RUN: %if mlir %{ ktc-opt %corpus/ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir --print-op-generic | %mlir-opt --allow-unregistered-dialect | filecheck %s --check-prefix=ACCEPTED %}

// SOFTMAX:      #map = affine_map<(d0, d1) -> (d0, d1)>
// SOFTMAX-NEXT: #set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
// SOFTMAX-NEXT: #set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
// SOFTMAX:      linalg.reduce { arith.maxnumf } ins(%{{.*}} : tensor<1x1024xf16>) outs(%{{.*}} : tensor<1xf16>) dimensions = [1]
// SOFTMAX:      linalg.reduce { arith.addf } ins(%{{.*}} : tensor<1x1024xf16>) outs(%{{.*}} : tensor<1xf16>) dimensions = [1]

// LAYERNORM:      scf.for %col = %c0_i32 to %N step %BLOCK_SIZE iter_args(%sum_iter = %zero_block) -> (tensor<1x1024xf16>) {
// LAYERNORM:        linalg.reduce { arith.addf } ins(%sum_block : tensor<1x1024xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]

// ACCEPTED: "ktdp.construct_memory_view"
// ACCEPTED: linalg.reduce { arith.maxnumf } ins(%{{.*}} : tensor<1x1024xf16>) outs(%{{.*}} : tensor<1xf16>) dimensions = [1]
// ACCEPTED: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<1x1024xf16>) outs(%{{.*}} : tensor<1xf16>) dimensions = [1]

// SDPA: linalg.reduce { arith.maximumf }
// SDPA: linalg.reduce { arith.addf }
