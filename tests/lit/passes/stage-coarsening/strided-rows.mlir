// Rows of a wider matrix: each tile reads the first 16 of 32 columns, so its rows
// are 32 elements apart in device memory. The DMA stage still moves all the rows
// of a tile at once (a cast with the tile's row count, strided by 32), but one
// transfer per vector column: a ts x 16 block is not contiguous and is not shaped
// like the staging buffer's ts x 2 x 8, so no single DMA copies it.

// RUN: ktc-opt %s -p 'ktir-to-schedule,stage-coarsening,verify-schedule' --arch toy | filecheck %s

// CHECK:      ktdf.stage depends_in(none) depends_out(%[[P:.*]]#3) {
// CHECK-NEXT:   %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:   scf.for %[[V:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          %[[A:.*]] = memref.reinterpret_cast %a_view to offset: [%{{.*}}], sizes: [%[[N:.*]], 16], strides: [32, 1] : memref<64x32xf16, "DDR"> to memref<?x16xf16, strided<[32, 1], offset: ?>, "DDR">
// CHECK-NEXT:     ktdf.data_transfer from %[[A]][0, %{{.*}}] size [%[[N]], 8] to %[[P]]#0[0, %[[V]], 0, 0] size [%[[N]], 1, 1, 8]
// CHECK:        } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:        ktdf.data_transfer from %{{.*}}[0, %{{.*}}] size [%[[N]], 8] to %[[P]]#1[0, %{{.*}}, 0, 0] size [%[[N]], 1, 1, 8]
// CHECK:      } {applicable_units = ["MNILU"]}
// CHECK:      ktdf.data_transfer from %[[P]]#2[0, %{{.*}}, 0, 0] size [%[[N]], 1, 1, 8] to %{{.*}}[0, %{{.*}}] size [%[[N]], 8]
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT: } {applicable_units = ["MNISU"]}

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows_per_tile = arith.constant 8 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %a_view = ktdp.construct_memory_view %a, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x32xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x32xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x32xf16>
    scf.for %i = %c0 to %rows_per_tile step %c1 {
      %r = arith.addi %first_row, %i : index
      %a_tile = ktdp.construct_access_tile %a_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x32xf16> -> !ktdp.access_tile<1x16xindex>
      %b_tile = ktdp.construct_access_tile %b_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x32xf16> -> !ktdp.access_tile<1x16xindex>
      %c_tile = ktdp.construct_access_tile %c_view[%r, %c0] {
        access_tile_set = #row, access_tile_order = #identity
      } : memref<64x32xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %a_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = ktdp.load %b_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %sum = arith.addf %x, %y : tensor<1x16xf16>
      ktdp.store %sum, %c_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    return
  }
}
