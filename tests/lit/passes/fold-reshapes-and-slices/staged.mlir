// A reshape that no strides describe is left for stage-reshaped-tiles, which copies
// the tile through the scratchpad: the collapse of a loaded query tile (two tokens
// 4096 elements apart, four heads 128 apart: no eight rows of one stride), after the
// exp moved below it stays a collapse of the load; the expand of a result computed
// from it, stored back through a tile of the same layout, stays a store of the
// expand.

// RUN: ktc-opt %s -p fold-reshapes-and-slices | filecheck %s

#qs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#qt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @query
func.func @query(%q: index, %o: index) {
  %c0 = arith.constant 0 : index
  %qv = ktdp.construct_memory_view %q, sizes: [8, 32, 128], strides: [4096, 128, 1] {coordinate_set = #qs, memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
  %ov = ktdp.construct_memory_view %o, sizes: [8, 32, 128], strides: [4096, 128, 1] {coordinate_set = #qs, memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
  %qa = ktdp.construct_access_tile %qv[%c0, %c0, %c0] {access_tile_set = #qt, access_tile_order = #id3} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
  // CHECK:      %[[A:.+]] = ktdp.load %{{.*}} : <2x4x128xindex> -> tensor<2x4x128xf16>
  // CHECK-NEXT: %[[B:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<2x4x128xf16> into tensor<8x128xf16>
  // CHECK-NEXT: %[[E:.+]] = math.exp %[[B]] : tensor<8x128xf16>
  // CHECK-NEXT: %[[F:.+]] = math.exp %[[E]] : tensor<8x128xf16>
  // CHECK-NEXT: %[[X:.+]] = tensor.expand_shape %[[F]]
  // CHECK:      ktdp.store %[[X]], %{{.*}} : tensor<2x4x128xf16>, <2x4x128xindex>
  %a = ktdp.load %qa : !ktdp.access_tile<2x4x128xindex> -> tensor<2x4x128xf16>
  %b = math.exp %a : tensor<2x4x128xf16>
  %c = tensor.collapse_shape %b [[0, 1], [2]] : tensor<2x4x128xf16> into tensor<8x128xf16>
  %d = math.exp %c : tensor<8x128xf16>
  %x = tensor.expand_shape %d [[0, 1], [2]] output_shape [2, 4, 128] : tensor<8x128xf16> into tensor<2x4x128xf16>
  %oa = ktdp.construct_access_tile %ov[%c0, %c0, %c0] {access_tile_set = #qt, access_tile_order = #id3} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
  ktdp.store %x, %oa : tensor<2x4x128xf16>, !ktdp.access_tile<2x4x128xindex>
  return
}
