// split_row_sum_loop: the all-reduce of split_row_sum_allreduce inside an scf.for, one
// row per iteration, so the receive buffer is reused: tile j of grid [2] sums columns
// 128j..128j+127 of row k in iteration k (k = 0..3), ktdp.inter_tile_reduce adds the
// two tiles' partials on both tiles, and tile j stores the total to y[4j + k]:
// y.reshape(2, 4)[j] = x.sum(axis=1) for j = 0, 1.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#identity1 = affine_map<(d0) -> (d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#both = affine_set<(t)[g] : (t >= 0, 1 - t >= 0)>
module {
  func.func @split_row_sum(%x: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %columns_per_tile = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %j = ktdp.get_compute_tile_id : index
    %first_column = arith.muli %j, %columns_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [4, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf32>
    %y_view = ktdp.construct_memory_view %y, sizes: [8], strides: [1] {
      coordinate_set = #sums, memory_space = #ktdp.memory_space<global>
    } : memref<8xf32>
    %copy = arith.muli %j, %c4 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %x_tile = ktdp.construct_access_tile %x_view[%k, %first_column] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<4x256xf32> -> !ktdp.access_tile<1x128xindex>
      %at = arith.addi %copy, %k : index
      %y_tile = ktdp.construct_access_tile %y_view[%at] {
        access_tile_set = #one, access_tile_order = #identity1
      } : memref<8xf32> -> !ktdp.access_tile<1xindex>
      %values = ktdp.load %x_tile : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf32>
      %empty = tensor.empty() : tensor<1xf32>
      %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1xf32>) -> tensor<1xf32>
      %partial = linalg.reduce { arith.addf } ins(%values : tensor<1x128xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      %future = ktdp.inter_tile_produce producer_tiles_per_group = #both -> <(tensor<1xf32>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%group: index):
        ktdp.yield_partial %partial : tensor<1xf32>
      }
      %sum = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = #both, identity() : <(tensor<1xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf32> {
      ^bb0(%lhs: tensor<1xf32>, %rhs: tensor<1xf32>):
        %both = arith.addf %lhs, %rhs : tensor<1xf32>
        ktdp.yield_reduced %both : tensor<1xf32>
      }
      ktdp.store %sum, %y_tile : tensor<1xf32>, !ktdp.access_tile<1xindex>
    }
    return
  }
}
