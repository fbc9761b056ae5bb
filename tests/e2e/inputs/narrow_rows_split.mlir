// y[r] = sum_c (v[c] - x[r, c]) over a 2x64 block split in two column halves of
// 2x32, one per tile, whose partial sums ktdp.inter_tile_reduce adds: each tile's
// block holds two rows narrower than spyre's 64 lanes, and the row vector v is
// broadcast over them.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block_vector = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#block_rows = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @narrow_rows_split(%x: index, %v: index, %y: index) attributes {grid = [2, 1]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 2 : index
    %j, %tile = ktdp.get_compute_tile_id : index, index
    %cols_per_tile = arith.constant 32 : index
    %first_col = arith.muli %j, %cols_per_tile : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %view0 = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %tile0 = ktdp.construct_access_tile %view0[%first_row, %first_col] {access_tile_set = #block, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<2x32xindex>
    %x0 = ktdp.load %tile0 : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
    %view1 = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tile1 = ktdp.construct_access_tile %view1[%first_col] {access_tile_set = #block_vector, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<32xindex>
    %row1 = ktdp.load %tile1 : !ktdp.access_tile<32xindex> -> tensor<32xf16>
    %empty1 = tensor.empty() : tensor<2x32xf16>
    %x1 = linalg.broadcast ins(%row1 : tensor<32xf16>) outs(%empty1 : tensor<2x32xf16>) dimensions = [0]
    %v0 = arith.subf %x1, %x0 : tensor<2x32xf16>
    %identity = arith.constant 0.0 : f16
    %acc_empty = tensor.empty() : tensor<2xf16>
    %acc = linalg.fill ins(%identity : f16) outs(%acc_empty : tensor<2xf16>) -> tensor<2xf16>
    %reduced = linalg.generic {indexing_maps = [#id2, #per_row], iterator_types = ["parallel", "reduction"]} ins(%v0 : tensor<2x32xf16>) outs(%acc : tensor<2xf16>) {
    ^bb0(%in: f16, %a: f16):
      %next = arith.addf %in, %a : f16
      linalg.yield %next : f16
    } -> tensor<2xf16>
    %future = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(t)[g] : (t - 2 * g >= 0, 2 * g + 1 - t >= 0)> -> <(tensor<2xf16>), groups = affine_set<(g) : (g >= 0, 0 - g >= 0)>> {
    ^bb0(%group: index):
      ktdp.yield_partial %reduced : tensor<2xf16>
    }
    %total = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = affine_set<(t)[g] : (t - 2 * g == 0)>, identity() : <(tensor<2xf16>), groups = affine_set<(g) : (g >= 0, 0 - g >= 0)>> -> tensor<2xf16> {
    ^bb0(%lhs: tensor<2xf16>, %rhs: tensor<2xf16>):
      %both = arith.addf %lhs, %rhs : tensor<2xf16>
      ktdp.yield_reduced %both : tensor<2xf16>
    }
    %out_view = ktdp.construct_memory_view %y, sizes: [2], strides: [1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %out_tile = ktdp.construct_access_tile %out_view[%first_row] {access_tile_set = #block_rows, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<2xindex>
    %stores = arith.cmpi eq, %j, %c0 : index
    scf.if %stores {
      ktdp.store %total, %out_tile : tensor<2xf16>, !ktdp.access_tile<2xindex>
    }
    return
  }
}
