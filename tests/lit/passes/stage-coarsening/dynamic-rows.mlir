// Rows per tile known only at run time (the row count %n is an argument): the last
// tile's row count is then a run-time value even once tile sizes are chosen, so the
// DMA stages keep their loop over rows; the two vectors of each row, a constant
// count, still move as one transfer of the whole row.

// RUN: ktc-opt %s -p 'ktir-to-schedule,stage-coarsening,verify-schedule' --arch toy | filecheck %s

// CHECK:      %[[N:.*]] = ktdf.tiling.derive_size [%{{.*}} : %{{.*}}], total_size = %n : index
// CHECK:      ktdf.stage depends_in(none) depends_out(%[[P:.*]]#3) {
// CHECK-NEXT:   arith.constant 0 : index
// CHECK-NEXT:   scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:          ktdf.data_transfer from %a_tile[0, %{{.*}}] size [1, 16] to %[[P]]#0[%[[I]], 0, 0, 0] size [1, 2, 1, 8]
// CHECK:          ktdf.data_transfer from %b_tile[0, %{{.*}}] size [1, 16] to %[[P]]#1[%[[I]], 0, 0, 0] size [1, 2, 1, 8]
// CHECK-NEXT:   }
// CHECK-NEXT: } {applicable_units = ["MNILU"]}

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index, %n: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows_per_tile = arith.constant 8 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %a_view = ktdp.construct_memory_view %a, sizes: [64, 16], strides: [16, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x16xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [64, 16], strides: [16, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x16xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [64, 16], strides: [16, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x16xf16>
    scf.for %i = %c0 to %n step %c1 {
      %r = arith.addi %first_row, %i : index
      %a_tile = ktdp.construct_access_tile %a_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x16xf16> -> !ktdp.access_tile<1x16xindex>
      %b_tile = ktdp.construct_access_tile %b_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x16xf16> -> !ktdp.access_tile<1x16xindex>
      %c_tile = ktdp.construct_access_tile %c_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x16xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %a_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = ktdp.load %b_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %sum = arith.addf %x, %y : tensor<1x16xf16>
      ktdp.store %sum, %c_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    return
  }
}
