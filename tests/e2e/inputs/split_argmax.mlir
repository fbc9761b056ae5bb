// split_argmax: the largest value of each row of X and the first column holding it,
// each row split over two tiles: tile (j, i) takes columns 128j..128j+127 of rows 2i
// and 2i+1 and finds its halves' maxima and their columns (a linalg.reduce of the
// values and the column numbers, an f32 input), ktdp.inter_tile_produce yields both
// partials, and ktdp.inter_tile_reduce combines the two tiles of row block i (group
// i: linear tiles 2i and 2i+1, x fastest) by the same compare and selects, ties
// keeping the smaller column; tile (0, i), the group's consumer, stores them.
//   numpy: m = x.max(axis=1); am = x.argmax(axis=1)    (x: 4x256 f16, cols: 4x256 f32)
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#block_rows = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
module {
  func.func @split_argmax(%x: index, %cols: index, %m: index, %am: index) attributes {grid = [2, 2]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 2 : index
    %columns_per_tile = arith.constant 128 : index
    %j, %i = ktdp.get_compute_tile_id : index, index
    %first_row = arith.muli %i, %rows_per_tile : index
    %first_column = arith.muli %j, %columns_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [4, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf16>
    %cols_view = ktdp.construct_memory_view %cols, sizes: [4, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf32>
    %m_view = ktdp.construct_memory_view %m, sizes: [4], strides: [1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<4xf16>
    %am_view = ktdp.construct_memory_view %am, sizes: [4], strides: [1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<4xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%first_row, %first_column] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<4x256xf16> -> !ktdp.access_tile<2x128xindex>
    %cols_tile = ktdp.construct_access_tile %cols_view[%first_row, %first_column] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<4x256xf32> -> !ktdp.access_tile<2x128xindex>
    %m_tile = ktdp.construct_access_tile %m_view[%first_row] {
      access_tile_set = #block_rows, access_tile_order = #identity1
    } : memref<4xf16> -> !ktdp.access_tile<2xindex>
    %am_tile = ktdp.construct_access_tile %am_view[%first_row] {
      access_tile_set = #block_rows, access_tile_order = #identity1
    } : memref<4xf32> -> !ktdp.access_tile<2xindex>
    %values = ktdp.load %x_tile : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %columns = ktdp.load %cols_tile : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf32>
    %lowest = arith.constant dense<0xFC00> : tensor<2xf16>
    %first = arith.constant dense<0.0> : tensor<2xf32>
    %max, %argmax = linalg.reduce ins(%values, %columns : tensor<2x128xf16>, tensor<2x128xf32>)
        outs(%lowest, %first : tensor<2xf16>, tensor<2xf32>) dimensions = [1]
      (%value: f16, %column: f32, %best: f16, %where: f32) {
        %larger = arith.cmpf ogt, %value, %best : f16
        %equal = arith.cmpf oeq, %value, %best : f16
        %before = arith.cmpf olt, %column, %where : f32
        %tie = arith.andi %equal, %before : i1
        %take = arith.ori %larger, %tie : i1
        %next = arith.select %take, %value, %best : f16
        %next_column = arith.select %take, %column, %where : f32
        linalg.yield %next, %next_column : f16, f32
      }
    %future = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(t)[g] : (t - 2 * g >= 0, 2 * g + 1 - t >= 0)> -> <(tensor<2xf16>, tensor<2xf32>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> {
    ^bb0(%group: index):
      ktdp.yield_partial %max, %argmax : tensor<2xf16>, tensor<2xf32>
    }
    %total, %where_total = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = affine_set<(t)[g] : (t - 2 * g == 0)>, identity() : <(tensor<2xf16>, tensor<2xf32>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> -> tensor<2xf16>, tensor<2xf32> {
    ^bb0(%lv: tensor<2xf16>, %li: tensor<2xf32>, %rv: tensor<2xf16>, %ri: tensor<2xf32>):
      %larger = arith.cmpf ogt, %rv, %lv : tensor<2xf16>
      %equal = arith.cmpf oeq, %rv, %lv : tensor<2xf16>
      %before = arith.cmpf olt, %ri, %li : tensor<2xf32>
      %tie = arith.andi %equal, %before : tensor<2xi1>
      %take = arith.ori %larger, %tie : tensor<2xi1>
      %v = arith.select %take, %rv, %lv : tensor<2xi1>, tensor<2xf16>
      %w = arith.select %take, %ri, %li : tensor<2xi1>, tensor<2xf32>
      ktdp.yield_reduced %v, %w : tensor<2xf16>, tensor<2xf32>
    }
    %combines = arith.cmpi eq, %j, %c0 : index
    scf.if %combines {
      ktdp.store %total, %m_tile : tensor<2xf16>, !ktdp.access_tile<2xindex>
      ktdp.store %where_total, %am_tile : tensor<2xf32>, !ktdp.access_tile<2xindex>
    }
    return
  }
}
