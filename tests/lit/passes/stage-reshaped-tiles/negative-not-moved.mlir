// A reshape left between compute and compute (not of a load, and not only stored) is
// refused at the reshape: the scratchpad copy stands between a tile and its memory.
// So is a reshape of a load of a tile that is not of a memory view.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p stage-reshaped-tiles

#os = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%s: f16, %o: index) attributes {grid = [1]} {
    %a = tensor.splat %s : tensor<2x4x128xf16>
    // expected-error@+1 {{'tensor.collapse_shape' reshapes the result of 'tensor.splat' into a shape no strides of its memory describe; the compiler copies such a reshape through the scratchpad only between a load or a store and the tile it moves}}
    %b = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x4x128xf16> into tensor<8x128xf16>
    %e = math.exp %b : tensor<8x128xf16>
    %ov = ktdp.construct_memory_view %o, sizes: [8, 128], strides: [128, 1] {coordinate_set = #os, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %oa = ktdp.construct_access_tile %ov[0, 0] {access_tile_set = #os, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %e, %oa : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
    return
  }
}

// -----

#qt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#os = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%o: index) attributes {grid = [1]} {
    %buffer = memref.alloc() : memref<2x4x128xf16, "L1">
    %qa = ktdp.construct_access_tile %buffer[0, 0, 0] {access_tile_set = #qt, access_tile_order = #id3} : memref<2x4x128xf16, "L1"> -> !ktdp.access_tile<2x4x128xindex>
    %a = ktdp.load %qa : !ktdp.access_tile<2x4x128xindex> -> tensor<2x4x128xf16>
    // expected-error@+1 {{'tensor.collapse_shape' reshapes a tile that is not a ktdp.construct_access_tile of a ktdp.construct_memory_view; the compiler copies a reshape through the scratchpad only for such tiles}}
    %b = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x4x128xf16> into tensor<8x128xf16>
    %e = math.exp %b : tensor<8x128xf16>
    %ov = ktdp.construct_memory_view %o, sizes: [8, 128], strides: [128, 1] {coordinate_set = #os, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %oa = ktdp.construct_access_tile %ov[0, 0] {access_tile_set = #os, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %e, %oa : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
    return
  }
}
