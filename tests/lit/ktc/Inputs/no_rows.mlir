// add16.mlir with a loop that runs zero times (from 0 to 0): the kernel computes
// nothing, and `ktc run` says it took 0 cycles.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows_per_tile = arith.constant 8 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %a_view = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<16x16xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<16x16xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<16x16xf16>
    scf.for %i = %c0 to %c0 step %c1 {
      %r = arith.addi %first_row, %i : index
      %a_tile = ktdp.construct_access_tile %a_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
      %b_tile = ktdp.construct_access_tile %b_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
      %c_tile = ktdp.construct_access_tile %c_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %a_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = ktdp.load %b_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %sum = arith.addf %x, %y : tensor<1x16xf16>
      ktdp.store %sum, %c_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    return
  }
}
