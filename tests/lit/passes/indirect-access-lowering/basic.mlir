// A gather and a scatter through one index view: each copies the index view whole
// into a scratchpad buffer on the DMA engine that reads device memory, then loops
// over the rows on the engine that moves the tile, reads each row's index with
// memref.load, clamps it to the table's 100 rows (arith.minui: an index outside the
// table names row 100, past its end) and moves the 16-element row with one transfer
// from the row it names to the row's place in the tile buffer (affine.apply of the
// tile position). The tables are marked ktdf.masked, so that a row past the end moves
// nothing (zeros for the gather).
// The gather's load becomes a load of the whole gathered buffer; the scatter's
// store a store into its buffer before its pipeline.

// RUN: ktc-opt %s --arch toy -p indirect-access-lowering | filecheck %s

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_scatter(%x: index, %idx: index, %y: index) {
  %x_view = ktdp.construct_memory_view %x, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %y_view = ktdp.construct_memory_view %y, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %out = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %y_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %w = arith.addf %v, %v : tensor<8x16xf16>
  ktdp.store %w, %out : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  return
}

// CHECK-LABEL: func.func @gather_scatter
// CHECK-DAG:     %[[SCATTERED:.*]] = memref.alloc() : memref<8x16xf16, "L1">
// CHECK-DAG:     %[[GATHERED:.*]] = memref.alloc() : memref<8x16xf16, "L1">
// CHECK-DAG:     %[[X:.*]] = ktdp.construct_memory_view %x{{.*}} ktdf.masked{{.*}} : memref<100x16xf16, "DDR">
// CHECK-DAG:     %[[IDX:.*]] = ktdp.construct_memory_view %idx{{.*}} : memref<8xi32, "DDR">
// CHECK:         ktdf.pipeline {
// CHECK:           ktdf.stage depends_in(none)
// CHECK-NEXT:        ktdf.data_transfer from %[[IDX]][0] size [8] to %[[INDICES:.*]][0] size [8]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK:           ktdf.stage
// CHECK:             scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[I:.*]] = memref.load %[[INDICES]][%{{.*}}] : memref<8xi32, "L1">
// CHECK-NEXT:          %[[CAST:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:          %[[ROWS:.*]] = arith.constant 100 : index
// CHECK-NEXT:          %[[ROW:.*]] = arith.minui %[[CAST]], %[[ROWS]] : index
// CHECK-NEXT:          affine.apply
// CHECK-NEXT:          %[[AT:[^ ]+]] = affine.apply #{{.*}}(%[[M]], %{{.*}})
// CHECK-NEXT:          affine.apply
// CHECK-NEXT:          ktdf.data_transfer from %[[X]][%[[ROW]], %{{.*}}] size [1, 16] to %[[GATHERED]][%[[AT]], %{{.*}}] size [1, 16]
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         %[[WHOLE:.*]] = ktdp.construct_access_tile %[[GATHERED]][0, 0]
// CHECK-NEXT:    %[[V:.*]] = ktdp.load %[[WHOLE]] : <8x16xindex> -> tensor<8x16xf16>
// CHECK-NEXT:    %[[W:.*]] = arith.addf %[[V]], %[[V]]
// CHECK:         %[[OUT:.*]] = ktdp.construct_access_tile %[[SCATTERED]][0, 0]
// CHECK-NEXT:    ktdp.store %[[W]], %[[OUT]]
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:             ktdf.data_transfer from %[[SCATTERED]][%{{.*}}, %{{.*}}] size [1, 16] to %{{.*}}[%{{.*}}, %{{.*}}] size [1, 16]
// CHECK:           } {applicable_units = ["MNISU"]}
// CHECK-NOT:     construct_indirect_access_tile
