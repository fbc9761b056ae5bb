// A reshape that no strides describe, stored and also computed on, is refused at the
// reshape, saying why: rows of two tokens 4096 elements apart and four heads 128
// apart do not make eight rows of one stride (paged attention's query tile). Only a
// reshape of a load, or one only stored, is copied through the scratchpad
// (stage-reshaped-tiles; staged.mlir).

// RUN: ktc-opt %s --verify-diagnostics -p fold-reshapes-and-slices

#qs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#qt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @query(%q: index) {
  %c0 = arith.constant 0 : index
  %qv = ktdp.construct_memory_view %q, sizes: [8, 32, 128], strides: [4096, 128, 1] {coordinate_set = #qs, memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
  %qa = ktdp.construct_access_tile %qv[%c0, %c0, %c0] {access_tile_set = #qt, access_tile_order = #id3} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
  %s = tensor.empty() : tensor<8x128xf16>
  %t = math.exp %s : tensor<8x128xf16>
  // expected-error@+1 {{'tensor.expand_shape' reshapes a 2x4x128 tile whose elements lie at strides [4096, 128, 1] into 8x128, which no strides describe (it is not layout-preserving): reshape only dimensions that are contiguous in memory, or load the pieces with their own tiles}}
  %b = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 4, 128] : tensor<8x128xf16> into tensor<2x4x128xf16>
  ktdp.store %b, %qa : tensor<2x4x128xf16>, !ktdp.access_tile<2x4x128xindex>
  %e = math.exp %b : tensor<2x4x128xf16>
  return
}
