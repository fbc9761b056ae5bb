// split_row_sum_allreduce: split_row_sum_reduce with every tile of a group a consumer
// (an all-reduce): tile (j, i) sums columns 128j..128j+127 of rows 2i and 2i+1,
// ktdp.inter_tile_reduce adds the two tiles' partials of row block i (group i: linear
// tiles 2i and 2i+1, x fastest) on both tiles, and each tile stores the total to its
// own copy j of y (y holds two copies of the row sums, copy j at 4j..4j+3):
// y.reshape(2, 4)[j] = x.sum(axis=1) for j = 0, 1.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#block_sums = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#identity1 = affine_map<(d0) -> (d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @split_row_sum(%x: index, %y: index) attributes {grid = [2, 2]} {
    %rows_per_tile = arith.constant 2 : index
    %rows = arith.constant 4 : index
    %columns_per_tile = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %j, %i = ktdp.get_compute_tile_id : index, index
    %first_row = arith.muli %i, %rows_per_tile : index
    %first_column = arith.muli %j, %columns_per_tile : index
    %copy = arith.muli %j, %rows : index
    %first_sum = arith.addi %copy, %first_row : index
    %x_view = ktdp.construct_memory_view %x, sizes: [4, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf32>
    %y_view = ktdp.construct_memory_view %y, sizes: [8], strides: [1] {
      coordinate_set = #sums, memory_space = #ktdp.memory_space<global>
    } : memref<8xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%first_row, %first_column] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<4x256xf32> -> !ktdp.access_tile<2x128xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%first_sum] {
      access_tile_set = #block_sums, access_tile_order = #identity1
    } : memref<8xf32> -> !ktdp.access_tile<2xindex>
    %values = ktdp.load %x_tile : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf32>
    %empty = tensor.empty() : tensor<2xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
    %partial = linalg.generic {
      indexing_maps = [#identity, #per_row],
      iterator_types = ["parallel", "reduction"]
    } ins(%values : tensor<2x128xf32>) outs(%init : tensor<2xf32>) {
    ^bb0(%value: f32, %acc: f32):
      %next = arith.addf %value, %acc : f32
      linalg.yield %next : f32
    } -> tensor<2xf32>
    %future = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(t)[g] : (t - 2 * g >= 0, 2 * g + 1 - t >= 0)> -> <(tensor<2xf32>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> {
    ^bb0(%group: index):
      ktdp.yield_partial %partial : tensor<2xf32>
    }
    %sum = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = affine_set<(t)[g] : (t - 2 * g >= 0, 2 * g + 1 - t >= 0)>, identity() : <(tensor<2xf32>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> -> tensor<2xf32> {
    ^bb0(%lhs: tensor<2xf32>, %rhs: tensor<2xf32>):
      %both = arith.addf %lhs, %rhs : tensor<2xf32>
      ktdp.yield_reduced %both : tensor<2xf32>
    }
    ktdp.store %sum, %y_tile : tensor<2xf32>, !ktdp.access_tile<2xindex>
    return
  }
}
