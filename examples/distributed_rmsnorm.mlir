// distributed_rmsnorm: Y = X / sqrt(mean(X * X) + eps) * w along each row, eps = 1e-5,
// X's rows split over four arrays.
//   numpy: x = np.concatenate([x0, x1, x2, x3]); y = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * w[None, :]
//   (x0..x3: 16x256 f16 each, rows 16k..16k+15 of x; w: 256 f16; y: 64x256 f16)
// The 2x2 grid of tiles reads X through one distributed view of the four arrays:
// tile (tx, ty) takes rows 16 t .. 16 t + 15, t = tx + 2 ty. It copies its rows into
// its own scratchpad once (at element 0, a ct_local view), then normalizes them row
// by row from there: the rows cross device memory once, in and out.
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 48 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
module {
  func.func @distributed_rmsnorm(%x0: index, %x1: index, %x2: index, %x3: index, %w: index,
                                 %y: index) attributes {grid = [2, 2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f16
    %tx, %ty = ktdp.get_compute_tile_id : index, index
    %ty2 = arith.muli %ty, %c2 : index
    %tile = arith.addi %tx, %ty2 : index
    %first_row = arith.muli %tile, %c16 : index
    %p0 = ktdp.construct_memory_view %x0, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #part0, memory_space = #ktdp.memory_space<global>
    } : memref<16x256xf16>
    %p1 = ktdp.construct_memory_view %x1, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #part1, memory_space = #ktdp.memory_space<global>
    } : memref<16x256xf16>
    %p2 = ktdp.construct_memory_view %x2, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #part2, memory_space = #ktdp.memory_space<global>
    } : memref<16x256xf16>
    %p3 = ktdp.construct_memory_view %x3, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #part3, memory_space = #ktdp.memory_space<global>
    } : memref<16x256xf16>
    %x_view = ktdp.construct_distributed_memory_view (%p0, %p1, %p2, %p3 : memref<16x256xf16>,
        memref<16x256xf16>, memref<16x256xf16>, memref<16x256xf16>) : memref<64x256xf16>
    %local = ktdp.construct_memory_view %c0, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #block, memory_space = #ktdp.memory_space<ct_local>
    } : memref<16x256xf16>
    %w_view = ktdp.construct_memory_view %w, sizes: [256], strides: [1] {
      coordinate_set = #vector, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    %x_rows = ktdp.construct_access_tile %x_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<64x256xf16> -> !ktdp.access_tile<16x256xindex>
    %local_rows = ktdp.construct_access_tile %local[%c0, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<16x256xf16> -> !ktdp.access_tile<16x256xindex>
    %rows = ktdp.load %x_rows : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    ktdp.store %rows, %local_rows : tensor<16x256xf16>, !ktdp.access_tile<16x256xindex>
    scf.for %i = %c0 to %c16 step %c1 {
      %r = arith.addi %first_row, %i : index
      %x_tile = ktdp.construct_access_tile %local[%i, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<16x256xf16> -> !ktdp.access_tile<1x256xindex>
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
