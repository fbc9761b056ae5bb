// split_rmsnorm: rmsnorm with the hidden dimension split over two tiles, eps = 1e-5.
//   numpy: y = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * w[None, :]
//   (x, y: 16x256 f16, w: 256 f16)
// Tile t takes columns 128t..128t+127 of every row, one row per loop step. Its sum of
// squares over its half of the row is a partial: ktdp.inter_tile_produce /
// ktdp.inter_tile_reduce add the two tiles' partials (an all-reduce: both tiles are
// the group's consumers, the sum folded in ascending tile id), so each tile has the
// full row's sum and normalizes its own half.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#half_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#both = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
module {
  func.func @split_rmsnorm(%x: index, %w: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 16 : index
    %columns_per_tile = arith.constant 128 : index
    %zero = arith.constant 0.0 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_column = arith.muli %tile, %columns_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<16x256xf16>
    %w_view = ktdp.construct_memory_view %w, sizes: [256], strides: [1] {
      coordinate_set = #vector, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<16x256xf16>
    scf.for %r = %c0 to %rows step %c1 {
      %x_tile = ktdp.construct_access_tile %x_view[%r, %first_column] {
        access_tile_set = #half_row, access_tile_order = #identity
      } : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
      %w_tile = ktdp.construct_access_tile %w_view[%first_column] {
        access_tile_set = #half, access_tile_order = #identity1
      } : memref<256xf16> -> !ktdp.access_tile<128xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%r, %first_column] {
        access_tile_set = #half_row, access_tile_order = #identity
      } : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
      %values = ktdp.load %x_tile : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %weight = ktdp.load %w_tile : !ktdp.access_tile<128xindex> -> tensor<128xf16>
      %scalar = tensor.empty() : tensor<1xf16>
      %half_row = tensor.empty() : tensor<1x128xf16>
      %squares = arith.mulf %values, %values : tensor<1x128xf16>
      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>
      %partial = linalg.reduce { arith.addf } ins(%squares : tensor<1x128xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %future = ktdp.inter_tile_produce producer_tiles_per_group = #both -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%group: index):
        ktdp.yield_partial %partial : tensor<1xf16>
      }
      %sum = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = #both, identity() : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16> {
      ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
        %added = arith.addf %lhs, %rhs : tensor<1xf16>
        ktdp.yield_reduced %added : tensor<1xf16>
      }
      %inv_n = arith.constant dense<3.906250e-03> : tensor<1xf16>
      %eps = arith.constant dense<1.000000e-05> : tensor<1xf16>
      %mean = arith.mulf %sum, %inv_n : tensor<1xf16>
      %mean_eps = arith.addf %mean, %eps : tensor<1xf16>
      %scale = math.rsqrt %mean_eps : tensor<1xf16>
      %scale_row = linalg.broadcast ins(%scale : tensor<1xf16>) outs(%half_row : tensor<1x128xf16>) dimensions = [1]
      %weight_row = linalg.broadcast ins(%weight : tensor<128xf16>) outs(%half_row : tensor<1x128xf16>) dimensions = [0]
      %normed = arith.mulf %values, %scale_row : tensor<1x128xf16>
      %result = arith.mulf %normed, %weight_row : tensor<1x128xf16>
      ktdp.store %result, %y_tile : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    }
    return
  }
}
