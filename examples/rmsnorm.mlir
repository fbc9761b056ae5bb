// rmsnorm: Y = X / sqrt(mean(X * X) + eps) * w along each row, eps = 1e-5.
//   numpy: y = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * w[None, :]
//   (x, y: 64x256 f16, w: 256 f16)
// 16 compute tiles take 4 rows each, one row per loop step. The mean is the sum
// times 1/256; the scale is math.rsqrt of one value per row, broadcast back.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
module {
  func.func @rmsnorm(%x: index, %w: index, %y: index) attributes {grid = [16]} {
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
      %y_tile = ktdp.construct_access_tile %y_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %values = ktdp.load %x_tile : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
      %weight = ktdp.load %w_tile : !ktdp.access_tile<256xindex> -> tensor<256xf16>
      %scalar = tensor.empty() : tensor<1xf16>
      %full_row = tensor.empty() : tensor<1x256xf16>
      %squares = arith.mulf %values, %values : tensor<1x256xf16>
      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>
      %sum = linalg.reduce { arith.addf } ins(%squares : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %inv_n = arith.constant dense<3.906250e-03> : tensor<1xf16>
      %eps = arith.constant dense<1.000000e-05> : tensor<1xf16>
      %mean = arith.mulf %sum, %inv_n : tensor<1xf16>
      %mean_eps = arith.addf %mean, %eps : tensor<1xf16>
      %scale = math.rsqrt %mean_eps : tensor<1xf16>
      %scale_row = linalg.broadcast ins(%scale : tensor<1xf16>) outs(%full_row : tensor<1x256xf16>) dimensions = [1]
      %weight_row = linalg.broadcast ins(%weight : tensor<256xf16>) outs(%full_row : tensor<1x256xf16>) dimensions = [0]
      %normed = arith.mulf %values, %scale_row : tensor<1x256xf16>
      %result = arith.mulf %normed, %weight_row : tensor<1x256xf16>
      ktdp.store %result, %y_tile : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
    }
    return
  }
}
