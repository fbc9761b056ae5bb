// broadcast_add: C = A + b, a row vector added to every row of a matrix.
//   numpy: c = a + b[None, :]    (a: 64x128 f16, b: 128 f16, c: 64x128 f16)
// 8 compute tiles take 8 rows each, as one 8x128 block; b is read whole by every
// tile and broadcast over the rows with linalg.broadcast.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
module {
  func.func @broadcast_add(%a: index, %b: index, %c: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 8 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %a_view = ktdp.construct_memory_view %a, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [128], strides: [1] {
      coordinate_set = #cols, memory_space = #ktdp.memory_space<global>
    } : memref<128xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %a_tile = ktdp.construct_access_tile %a_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
    %b_tile = ktdp.construct_access_tile %b_view[%c0] {
      access_tile_set = #cols, access_tile_order = #identity1
    } : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %c_tile = ktdp.construct_access_tile %c_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %a_tile : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
    %row = ktdp.load %b_tile : !ktdp.access_tile<128xindex> -> tensor<128xf16>
    %empty = tensor.empty() : tensor<8x128xf16>
    %rows = linalg.broadcast ins(%row : tensor<128xf16>) outs(%empty : tensor<8x128xf16>) dimensions = [0]
    %sum = arith.addf %x, %rows : tensor<8x128xf16>
    ktdp.store %sum, %c_tile : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
    return
  }
}
