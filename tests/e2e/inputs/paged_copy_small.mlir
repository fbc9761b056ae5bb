// A paged copy like the corpus's paged-tensor-copy.mlir, small and with pointer
// arguments: Y[b, t, h, d] = X[Idx[b, t floordiv 16], h, t mod 16, d] for 3 sequences
// of 64 tokens, 2 heads and 128 features (f16) from a cache of 16 pages of 2 x 16 x 128.
// The tile is 96 KiB: on toy (a 64 KiB scratchpad) a copy larger than the scratchpad,
// streamed one page run at a time; on spyre and line4 it is gathered whole.
#pages = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#tokens = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#heads = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  func.func @paged_copy_small(%x: index, %idx: index, %y: index) {
    %c0 = arith.constant 0 : index
    %idx_view = ktdp.construct_memory_view %idx, sizes: [3, 4], strides: [4, 1] {
      coordinate_set = #table, memory_space = #ktdp.memory_space<global>
    } : memref<3x4xi32>
    %x_view = ktdp.construct_memory_view %x, sizes: [16, 2, 16, 128], strides: [4096, 2048, 128, 1] {
      coordinate_set = #pages, memory_space = #ktdp.memory_space<global>
    } : memref<16x2x16x128xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [3, 64, 2, 128], strides: [16384, 256, 128, 1] {
      coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>
    } : memref<3x64x2x128xf16>
    %x_tile = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h, %t, %d)
        %x_view[ind(%idx_view[%b, %t floordiv 16]), (%h), (%t mod 16), (%d)] {
      variables_space_set = #heads, variables_space_order = #identity
    } : memref<16x2x16x128xf16>, memref<3x4xi32> -> !ktdp.access_tile<3x2x64x128xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0, %c0, %c0] {
      access_tile_set = #tokens, access_tile_order = #swapped
    } : memref<3x64x2x128xf16> -> !ktdp.access_tile<3x2x64x128xindex>
    %data = ktdp.load %x_tile : !ktdp.access_tile<3x2x64x128xindex> -> tensor<3x2x64x128xf16>
    ktdp.store %data, %y_tile : tensor<3x2x64x128xf16>, !ktdp.access_tile<3x2x64x128xindex>
    return
  }
}
