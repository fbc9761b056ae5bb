// layernorm: Y = (X - mean(X)) / sqrt(var(X) + eps) * w + b along each row.
//   numpy: c = x - x.mean(axis=1, keepdims=True)
//          y = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + eps) * w[None, :] + b[None, :]
//   (x, y: 64x256 f16; w, b: 256 f16; eps: an f16 argument)
// 16 compute tiles take 4 rows each, one row per loop step. Two sum reductions give
// the mean and the variance; one linalg.generic applies the scale, the weight and
// the bias, broadcasting the per-row scale and the per-column w and b by its maps.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
#per_column = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm(%x: index, %w: index, %b: index, %y: index, %eps: f16) attributes {grid = [16]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows_per_tile = arith.constant 4 : index
    %zero = arith.constant 0.0 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    %w_view = ktdp.construct_memory_view %w, sizes: [256], strides: [1] {
      coordinate_set = #vector, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [256], strides: [1] {
      coordinate_set = #vector, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    scf.for %i = %c0 to %rows_per_tile step %c1 {
      %r = arith.addi %first_row, %i : index
      %x_tile = ktdp.construct_access_tile %x_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %w_tile = ktdp.construct_access_tile %w_view[%c0] {
        access_tile_set = #vector, access_tile_order = #identity1
      } : memref<256xf16> -> !ktdp.access_tile<256xindex>
      %b_tile = ktdp.construct_access_tile %b_view[%c0] {
        access_tile_set = #vector, access_tile_order = #identity1
      } : memref<256xf16> -> !ktdp.access_tile<256xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %values = ktdp.load %x_tile : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
      %weight = ktdp.load %w_tile : !ktdp.access_tile<256xindex> -> tensor<256xf16>
      %bias = ktdp.load %b_tile : !ktdp.access_tile<256xindex> -> tensor<256xf16>
      %scalar = tensor.empty() : tensor<1xf16>
      %full_row = tensor.empty() : tensor<1x256xf16>
      %inv_n = arith.constant dense<3.906250e-03> : tensor<1xf16>
      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>
      %sum = linalg.reduce { arith.addf } ins(%values : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %mean = arith.mulf %sum, %inv_n : tensor<1xf16>
      %mean_row = linalg.broadcast ins(%mean : tensor<1xf16>) outs(%full_row : tensor<1x256xf16>) dimensions = [1]
      %centered = arith.subf %values, %mean_row : tensor<1x256xf16>
      %squares = arith.mulf %centered, %centered : tensor<1x256xf16>
      %square_sum = linalg.reduce { arith.addf } ins(%squares : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %variance = arith.mulf %square_sum, %inv_n : tensor<1xf16>
      %eps_tensor = tensor.splat %eps : tensor<1xf16>
      %variance_eps = arith.addf %variance, %eps_tensor : tensor<1xf16>
      %rstd = math.rsqrt %variance_eps : tensor<1xf16>
      %result = linalg.generic {
        indexing_maps = [#identity, #per_row, #per_column, #per_column, #identity],
        iterator_types = ["parallel", "parallel"]
      } ins(%centered, %rstd, %weight, %bias : tensor<1x256xf16>, tensor<1xf16>, tensor<256xf16>, tensor<256xf16>)
        outs(%full_row : tensor<1x256xf16>) {
      ^bb0(%c: f16, %s: f16, %wc: f16, %bc: f16, %unused: f16):
        %scaled = arith.mulf %c, %s : f16
        %weighted = arith.mulf %scaled, %wc : f16
        %shifted = arith.addf %weighted, %bc : f16
        linalg.yield %shifted : f16
      } -> tensor<1x256xf16>
      ktdp.store %result, %y_tile : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
    }
    return
  }
}
