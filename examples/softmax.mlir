// softmax: Y = softmax(X) along each row.
//   numpy: e = np.exp(x - x.max(axis=1, keepdims=True)); y = e / e.sum(axis=1, keepdims=True)
//   (x, y: 64x256 f16)
// 8 compute tiles take 8 rows each, one row per loop step: a max reduction, a
// broadcast back over the row, exp, a sum reduction and a division.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @softmax(%x: index, %y: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows_per_tile = arith.constant 8 : index
    %minus_inf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    scf.for %i = %c0 to %rows_per_tile step %c1 {
      %r = arith.addi %first_row, %i : index
      %x_tile = ktdp.construct_access_tile %x_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %values = ktdp.load %x_tile : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
      %scalar = tensor.empty() : tensor<1xf16>
      %full_row = tensor.empty() : tensor<1x256xf16>
      %max_init = linalg.fill ins(%minus_inf : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%values : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %max_row = linalg.broadcast ins(%max : tensor<1xf16>) outs(%full_row : tensor<1x256xf16>) dimensions = [1]
      %shifted = arith.subf %values, %max_row : tensor<1x256xf16>
      %exp = math.exp %shifted : tensor<1x256xf16>
      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>
      %sum = linalg.reduce { arith.addf } ins(%exp : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %sum_row = linalg.broadcast ins(%sum : tensor<1xf16>) outs(%full_row : tensor<1x256xf16>) dimensions = [1]
      %softmax = arith.divf %exp, %sum_row : tensor<1x256xf16>
      ktdp.store %softmax, %y_tile : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
    }
    return
  }
}
