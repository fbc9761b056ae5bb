// long_row_sum: y = the sum of each row of X, rows of 16384 f32 (64 KiB each, the
// whole scratchpad of the toy device).
//   numpy: y = x.sum(axis=1)    (x: 4x16384 f32, y: 4 f32)
// 2 compute tiles take 2 rows each, reduced along their columns.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 16383 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 16383 >= 0)>
#block_sums = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @long_row_sum(%x: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [4, 16384], strides: [16384, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x16384xf32>
    %y_view = ktdp.construct_memory_view %y, sizes: [4], strides: [1] {
      coordinate_set = #sums, memory_space = #ktdp.memory_space<global>
    } : memref<4xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<4x16384xf32> -> !ktdp.access_tile<2x16384xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%first_row] {
      access_tile_set = #block_sums, access_tile_order = #identity1
    } : memref<4xf32> -> !ktdp.access_tile<2xindex>
    %values = ktdp.load %x_tile : !ktdp.access_tile<2x16384xindex> -> tensor<2x16384xf32>
    %empty = tensor.empty() : tensor<2xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
    %sums = linalg.generic {
      indexing_maps = [#identity, #per_row],
      iterator_types = ["parallel", "reduction"]
    } ins(%values : tensor<2x16384xf32>) outs(%init : tensor<2xf32>) {
    ^bb0(%value: f32, %acc: f32):
      %next = arith.addf %value, %acc : f32
      linalg.yield %next : f32
    } -> tensor<2xf32>
    ktdp.store %sums, %y_tile : tensor<2xf32>, !ktdp.access_tile<2xindex>
    return
  }
}
