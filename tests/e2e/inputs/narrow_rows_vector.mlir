// y[r] = sum_c (v[c] - x[r, c]) over a 2x32 block on one tile: two rows narrower
// than spyre's 64 lanes, with the row vector v broadcast over them.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#block_vector = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#block_rows = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @narrow_rows_vector(%x: index, %v: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 2 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %view0 = ktdp.construct_memory_view %x, sizes: [2, 32], strides: [32, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %tile0 = ktdp.construct_access_tile %view0[%first_row, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
    %x0 = ktdp.load %tile0 : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
    %view1 = ktdp.construct_memory_view %v, sizes: [32], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
    %tile1 = ktdp.construct_access_tile %view1[%c0] {access_tile_set = #block_vector, access_tile_order = #id1} : memref<32xf16> -> !ktdp.access_tile<32xindex>
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
    %out_view = ktdp.construct_memory_view %y, sizes: [2], strides: [1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %out_tile = ktdp.construct_access_tile %out_view[%first_row] {access_tile_set = #block_rows, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<2xindex>
    ktdp.store %reduced, %out_tile : tensor<2xf16>, !ktdp.access_tile<2xindex>
    return
  }
}
