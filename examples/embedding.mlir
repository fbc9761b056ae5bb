// embedding: rows of a table looked up by token ids (an embedding layer's forward pass).
//   numpy: out = table[ids]    (table: 512x128 f16; ids: 64 i32 in [0, 512); out: 64x128 f16)
// 4 compute tiles split the ids, 16 each; a tile's DMA engine reads its ids, then
// moves each named row of 128 features with one copy (ids that follow one another
// in the table make one contiguous run, one descriptor).
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @embedding(%table: index, %ids: index, %out: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %tile = ktdp.get_compute_tile_id : index
    %first = arith.muli %tile, %c16 : index
    %table_view = ktdp.construct_memory_view %table, sizes: [512, 128], strides: [128, 1] {
      coordinate_set = #table, memory_space = #ktdp.memory_space<global>
    } : memref<512x128xf16>
    %ids_view = ktdp.construct_memory_view %ids, sizes: [64], strides: [1] {
      coordinate_set = #ids, memory_space = #ktdp.memory_space<global>
    } : memref<64xi32>
    %out_view = ktdp.construct_memory_view %out, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
        %table_view[ind(%ids_view[%first + %m]), (%k)] {
      variables_space_set = #rows, variables_space_order = #identity
    } : memref<512x128xf16>, memref<64xi32> -> !ktdp.access_tile<16x128xindex>
    %out_tile = ktdp.construct_access_tile %out_view[%first, %c0] {
      access_tile_set = #rows, access_tile_order = #identity
    } : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    %looked_up = ktdp.load %rows : !ktdp.access_tile<16x128xindex> -> tensor<16x128xf16>
    ktdp.store %looked_up, %out_tile : tensor<16x128xf16>, !ktdp.access_tile<16x128xindex>
    return
  }
}
