// paged_kv_gather: a paged KV cache read back into contiguous tiles through a block table.
//   numpy: k = pages[table[:, t // 16], :, t % 16, :].transpose(0, 2, 1, 3)
//          i.e. k[b, h, t, d] = pages[table[b, t // 16], h, t % 16, d] for t < 64
//   (pages: 64 pages of 4 heads x 16 tokens x 32 features, f16; table: 2x4 i32 page
//    ids; k: 2 sequences x 4 heads x 64 tokens x 32 features, f16)
// Each of the 2 compute tiles gathers one sequence: the DMA engine reads the block
// table, then moves each token's 32 features from the page the table names; tokens
// that lie one after another in a page (and pages one after another in memory) form
// one contiguous run, one descriptor.
#pages = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#keys = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#sequence = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @paged_kv_gather(%pages: index, %table: index, %k: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %b = ktdp.get_compute_tile_id : index
    %pages_view = ktdp.construct_memory_view %pages, sizes: [64, 4, 16, 32], strides: [2048, 512, 32, 1] {
      coordinate_set = #pages, memory_space = #ktdp.memory_space<global>
    } : memref<64x4x16x32xf16>
    %table_view = ktdp.construct_memory_view %table, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = #table, memory_space = #ktdp.memory_space<global>
    } : memref<2x4xi32>
    %k_view = ktdp.construct_memory_view %k, sizes: [2, 4, 64, 32], strides: [8192, 2048, 32, 1] {
      coordinate_set = #keys, memory_space = #ktdp.memory_space<global>
    } : memref<2x4x64x32xf16>
    %gathered = ktdp.construct_indirect_access_tile intermediate_variables(%s, %h, %t, %d)
        %pages_view[ind(%table_view[%b + %s, %t floordiv 16]), (%h), (%t mod 16), (%d)] {
      variables_space_set = #sequence, variables_space_order = #identity
    } : memref<64x4x16x32xf16>, memref<2x4xi32> -> !ktdp.access_tile<1x4x64x32xindex>
    %out = ktdp.construct_access_tile %k_view[%b, %c0, %c0, %c0] {
      access_tile_set = #sequence, access_tile_order = #identity
    } : memref<2x4x64x32xf16> -> !ktdp.access_tile<1x4x64x32xindex>
    %tile = ktdp.load %gathered : !ktdp.access_tile<1x4x64x32xindex> -> tensor<1x4x64x32xf16>
    ktdp.store %tile, %out : tensor<1x4x64x32xf16>, !ktdp.access_tile<1x4x64x32xindex>
    return
  }
}
