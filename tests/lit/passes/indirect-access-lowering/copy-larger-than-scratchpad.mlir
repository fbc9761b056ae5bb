// A gather whose tile (256 rows of 256 f16, 128 KiB) is larger than toy's 64 KiB
// scratchpad and is only stored, a copy: no tile buffer; the index view is copied
// whole by a pipeline of its own, then one loop over the rows runs, per row, a
// pipeline moving the row from the row its index names into a scratchpad buffer of
// one row (on the engine reading device memory) and from there to its place in the
// destination (on the engine writing it). The load, the store and the direct tile
// are erased.

// RUN: ktc-opt %s --arch toy -p indirect-access-lowering | filecheck %s

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 999 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_copy(%x: index, %idx: index, %y: index) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [1000, 256], strides: [256, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<1000x256xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [256], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<global>} : memref<256xi32>
  %y_view = ktdp.construct_memory_view %y, sizes: [512, 256], strides: [256, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<1000x256xf16>, memref<256xi32> -> !ktdp.access_tile<256x256xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c256, %c0] {
    access_tile_set = #tile, access_tile_order = #identity
  } : memref<512x256xf16> -> !ktdp.access_tile<256x256xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  ktdp.store %v, %y_tile : tensor<256x256xf16>, !ktdp.access_tile<256x256xindex>
  return
}

// CHECK-LABEL: func.func @gather_copy
// CHECK-NOT:     memref<256x256xf16, "L1">
// CHECK:         %[[INDICES:.*]] = memref.alloc() : memref<256xi32, "L1">
// CHECK-DAG:     %[[X:.*]] = ktdp.construct_memory_view %x{{.*}} : memref<1000x256xf16, "DDR">
// CHECK-DAG:     %[[Y:.*]] = ktdp.construct_memory_view %y{{.*}} : memref<512x256xf16, "DDR">
// CHECK:         ktdf.pipeline {
// CHECK:           ktdf.stage depends_in(none)
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[0] size [256] to %[[INDICES]][0] size [256]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[M:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %[[P:.*]]:3 = ktdf.private -> (memref<1x256xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK-NEXT:          memref.alloc() : memref<1x256xf16, "L1">
// CHECK:             ktdf.stage depends_in(none)
// CHECK:               %[[I:.*]] = memref.load %[[INDICES]][%{{.*}}] : memref<256xi32, "L1">
// CHECK-NEXT:          %[[CAST:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:          arith.constant 1000 : index
// CHECK-NEXT:          %[[ROW:.*]] = arith.minui %[[CAST]], %{{.*}} : index
// CHECK:               ktdf.data_transfer from %[[X]][%[[ROW]], %{{.*}}] size [1, 256] to %[[P]]#0[0, 0] size [1, 256]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:             ktdf.stage depends_in(%[[P]]#1)
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 256] to %[[Y]][%c256 + %[[M]], %c0 + %{{.*}}] size [1, 256]
// CHECK-NEXT:        } {applicable_units = ["MNISU"]}
// CHECK-NOT:     ktdp.load
// CHECK-NOT:     ktdp.store
// CHECK-NOT:     ktdp.construct_access_tile
