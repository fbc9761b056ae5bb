// The row loop of the orchestrator sinks into the program, is strip-mined by a
// reserve_size (rows per outer tile, the last tile the partial one), and the
// pipeline nests: each DMA stage moves a whole tile, one ts x 16 transfer per
// operand (the rows a cast with the tile's row count, the two vectors of a row side
// by side), the FIFO group walks its vectors with an inner pipeline, in copies of
// the row and vector loops marked parallel_loop (each iteration touches only its own
// row and vector of the staging buffers), and staging buffers gain the tile's row and
// vector dimensions.

// RUN: ktc-opt %s -p 'ktir-to-schedule,stage-coarsening,verify-schedule' --arch toy > %t
// RUN: filecheck %s < %t
// RUN: grep -c 'ktdf.data_transfer from %[abc]_tile\|to %c_tile' %t | filecheck %s --check-prefix=DMA

// One transfer each for a, b and c: none is left in a loop over rows or vectors.
// DMA: 3

// CHECK-LABEL: func.func @add(%a: index, %b: index, %c: index)
// CHECK-NEXT:    call @local_schedule_0(%a, %b, %c) : (index, index, index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @local_schedule_0(index, index, index) -> ()

// CHECK-LABEL: func.func @local_schedule_0(%a: index, %b: index, %c: index)
// CHECK:         %[[ROWS:.*]] = arith.constant 8 : index
// CHECK:         %[[TS:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[TILES:.*]] = arith.ceildivui %[[ROWS]], %[[TS]] : index
// CHECK-NEXT:    scf.for %[[T:.*]] = %{{.*}} to %[[TILES]] step %{{.*}} {
// CHECK-NEXT:      %[[N:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[TS]]], total_size = %[[ROWS]] : index
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %[[P:.*]]:6 = ktdf.private -> (memref<?x2x1x8xf16, "L1">, memref<?x2x1x8xf16, "L1">, memref<?x2x1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:          memref.alloc(%[[TS]]) : memref<?x2x1x8xf16, "L1">
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:          %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[FIRST:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[TS]]], [%[[ZERO]] : %{{.*}}] : index
// CHECK-NEXT:          %[[R:.*]] = arith.addi %first_row, %[[FIRST]] : index
// CHECK-NEXT:          %[[OFF:.*]] = affine.apply #{{.*}}(%[[R]], %{{.*}})
// CHECK-NEXT:          %[[COL:.*]] = arith.muli %[[ZERO]], %{{.*}} : index
// CHECK-NEXT:          %[[A:.*]] = memref.reinterpret_cast %a_view to offset: [%[[OFF]]], sizes: [%[[N]], 16], strides: [16, 1] : memref<64x16xf16, "DDR"> to memref<?x16xf16, strided<[16, 1], offset: ?>, "DDR">
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][0, %[[COL]]] size [%[[N]], 16] to %[[P]]#0[0, 0, 0, 0] size [%[[N]], 2, 1, 8]
// CHECK:               ktdf.data_transfer from %{{.*}}[0, %[[COL]]] size [%[[N]], 16] to %[[P]]#1[0, 0, 0, 0] size [%[[N]], 2, 1, 8]
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:          scf.for %[[I2:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:            scf.for %[[V2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:              ktdf.pipeline {
// CHECK-NEXT:                %[[Q:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token) {
// CHECK:                     ktdf.stage depends_in(none) depends_out(%[[Q]]#3) {
// CHECK-NEXT:                  ktdf.data_transfer from %[[P]]#0[%[[I2]], %[[V2]], 0, 0] size [1, 1, 1, 8] to %[[Q]]#0 size [1, 8]
// CHECK:                     } {applicable_units = ["L1LU"]}
// CHECK:                     } {applicable_units = ["SFU"]}
// CHECK-NEXT:                ktdf.stage depends_in(%[[Q]]#4) depends_out(none) {
// CHECK-NEXT:                  ktdf.data_transfer from %[[Q]]#2 size [1, 8] to %[[P]]#2[%[[I2]], %[[V2]], 0, 0] size [1, 1, 1, 8]
// CHECK:                 } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:          } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:        } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NOT:           scf.for
// CHECK:               ktdf.data_transfer from %[[P]]#2[0, 0, 0, 0] size [%[[N]], 2, 1, 8] to %{{.*}}[0, %{{.*}}] size [%[[N]], 16]
// CHECK-NEXT:        } {applicable_units = ["MNISU"]}

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [8]} {
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
    scf.for %i = %c0 to %rows_per_tile step %c1 {
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
