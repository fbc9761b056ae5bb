// row_sum: y = the sum of each row of X.
//   numpy: y = x.sum(axis=1)    (x: 64x256 f32, y: 64 f32)
// 8 compute tiles take 8 rows each, as one 8x256 block reduced along its columns by
// a linalg.generic with a reduction iterator.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block_sums = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @row_sum(%x: index, %y: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf32>
    %y_view = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {
      coordinate_set = #sums, memory_space = #ktdp.memory_space<global>
    } : memref<64xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<64x256xf32> -> !ktdp.access_tile<8x256xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%first_row] {
      access_tile_set = #block_sums, access_tile_order = #identity1
    } : memref<64xf32> -> !ktdp.access_tile<8xindex>
    %values = ktdp.load %x_tile : !ktdp.access_tile<8x256xindex> -> tensor<8x256xf32>
    %empty = tensor.empty() : tensor<8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
    %sums = linalg.generic {
      indexing_maps = [#identity, #per_row],
      iterator_types = ["parallel", "reduction"]
    } ins(%values : tensor<8x256xf32>) outs(%init : tensor<8xf32>) {
    ^bb0(%value: f32, %acc: f32):
      %next = arith.addf %value, %acc : f32
      linalg.yield %next : f32
    } -> tensor<8xf32>
    ktdp.store %sums, %y_tile : tensor<8xf32>, !ktdp.access_tile<8xindex>
    return
  }
}
