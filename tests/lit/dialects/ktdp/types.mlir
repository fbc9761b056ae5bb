// ktdp memory spaces on memref types, and tile futures whose groups are inequalities,
// round-trip through ktc-opt; the old unparenthesised tile_future spelling reads back
// in the current one. Real MLIR cannot carry these without the ktdp dialect (an
// unknown attribute is no memref memory space to it, and it reads the `>` of `>=`
// inside an unknown type as a closing bracket), so they are kept out of ops.mlir.
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s

func.func @memory_spaces(%a: memref<64xf32, #ktdp.memory_space<global>>,
                         %b: memref<64xf32, #ktdp.memory_space<ct_local, ct_id = 3>>,
                         %c: memref<64xf32, #ktdp.spyre_memory_space<HBM>>,
                         %d: memref<64xf32, #ktdp.spyre_memory_space<L0, core = 0>>) {
  return
}
// CHECK-LABEL: func.func @memory_spaces
// CHECK-SAME: memref<64xf32, #ktdp.memory_space<global>>
// CHECK-SAME: memref<64xf32, #ktdp.memory_space<ct_local, ct_id = 3>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<HBM>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<L0, core = 0>>

func.func @futures(%p: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>>,
                   %q: !ktdp.tile_future<tensor<1x8xf16>, tensor<1x8xi64>, groups = affine_set<(g) : (g == 0)>>) {
  return
}
// CHECK-LABEL: func.func @futures
// CHECK-SAME: !ktdp.tile_future<(tensor<1x8xf16>), groups = #{{set[0-9]*}}>
// CHECK-SAME: !ktdp.tile_future<(tensor<1x8xf16>, tensor<1x8xi64>), groups = #{{set[0-9]*}}>
