// A view composed of views in several memories is rejected: the pipeline
// schedules views of one memory.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p ktir-legality-check

#half = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#other_half = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
func.func @distributed(%a: index, %b: index) {
  %a_view = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %b_view = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {coordinate_set = #other_half, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error@+1 {{'ktdp.construct_distributed_memory_view' is not supported yet: the pipeline schedules views of one memory}}
  %view = ktdp.construct_distributed_memory_view(%a_view, %b_view : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  return
}
