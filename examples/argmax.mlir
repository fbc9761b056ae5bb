// argmax: the largest value of each row of X and the first column holding it.
//   numpy: m = x.max(axis=1); am = x.argmax(axis=1)    (x: 64x200 f16, m: 64 f16, am: 64 f32)
// The column numbers come in as an f32 array (cols[r, c] = c: the compute engines
// have no integer lanes, and f32 holds every index exactly). 8 compute tiles take 8
// rows each, as one 8x200 block reduced along its columns by a linalg.reduce of the
// values and their column numbers: a value strictly larger than the one kept so far,
// or an equal one at a smaller column, replaces it, so ties keep the first column
// whatever the order the reduction folds in.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 199 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 199 >= 0)>
#block_rows = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
module {
  func.func @argmax(%x: index, %cols: index, %m: index, %am: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 8 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 200], strides: [200, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x200xf16>
    %cols_view = ktdp.construct_memory_view %cols, sizes: [64, 200], strides: [200, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x200xf32>
    %m_view = ktdp.construct_memory_view %m, sizes: [64], strides: [1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64xf16>
    %am_view = ktdp.construct_memory_view %am, sizes: [64], strides: [1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<64x200xf16> -> !ktdp.access_tile<8x200xindex>
    %cols_tile = ktdp.construct_access_tile %cols_view[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #identity
    } : memref<64x200xf32> -> !ktdp.access_tile<8x200xindex>
    %m_tile = ktdp.construct_access_tile %m_view[%first_row] {
      access_tile_set = #block_rows, access_tile_order = #identity1
    } : memref<64xf16> -> !ktdp.access_tile<8xindex>
    %am_tile = ktdp.construct_access_tile %am_view[%first_row] {
      access_tile_set = #block_rows, access_tile_order = #identity1
    } : memref<64xf32> -> !ktdp.access_tile<8xindex>
    %values = ktdp.load %x_tile : !ktdp.access_tile<8x200xindex> -> tensor<8x200xf16>
    %columns = ktdp.load %cols_tile : !ktdp.access_tile<8x200xindex> -> tensor<8x200xf32>
    %lowest = arith.constant dense<0xFC00> : tensor<8xf16>
    %first = arith.constant dense<0.0> : tensor<8xf32>
    %max, %argmax = linalg.reduce ins(%values, %columns : tensor<8x200xf16>, tensor<8x200xf32>)
        outs(%lowest, %first : tensor<8xf16>, tensor<8xf32>) dimensions = [1]
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
    ktdp.store %max, %m_tile : tensor<8xf16>, !ktdp.access_tile<8xindex>
    ktdp.store %argmax, %am_tile : tensor<8xf32>, !ktdp.access_tile<8xindex>
    return
  }
}
