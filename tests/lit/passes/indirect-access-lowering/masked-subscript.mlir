// An index subscript that may fall outside its index view (`%m + %shift`, the shift
// known only at launch) reads 0 there, as the reference does: the subscript is
// clamped to the view's last element for the read (arith.minui with 7), and the index
// read is multiplied by min(8 - min(s, 8), 1), 1 inside the view's 8 elements and 0
// outside (unsigned, so a negative subscript is outside too); the index is then
// clamped to the table as every index is. A subscript that provably stays inside
// (`%m`, of the second gather) is read as it is.

// RUN: ktc-opt %s --arch toy -p indirect-access-lowering | filecheck %s

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @shifted_gather(%x: index, %idx: index, %y: index, %shift: index) {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [100, 16], strides: [16, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x16xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %y_view = ktdp.construct_memory_view %y, sizes: [8, 16], strides: [16, 1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %shifted = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m + %shift]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<100x16xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  %out = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #tile, access_tile_order = #identity} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %shifted : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %w = ktdp.load %rows : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %s = arith.addf %v, %w : tensor<8x16xf16>
  ktdp.store %s, %out : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  return
}

// CHECK-LABEL: func.func @shifted_gather
// CHECK:         ktdf.stage
// CHECK:             scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[S:.*]] = affine.apply #{{.*}}(%{{.*}}, %[[M]], %{{.*}})
// CHECK-NEXT:          %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:          %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:          %[[SEVEN:.*]] = arith.constant 7 : index
// CHECK-NEXT:          %[[LOW:.*]] = arith.minui %[[S]], %[[EIGHT]] : index
// CHECK-NEXT:          %[[ROOM:.*]] = arith.subi %[[EIGHT]], %[[LOW]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.minui %[[S]], %[[SEVEN]] : index
// CHECK-NEXT:          %[[INSIDE:.*]] = arith.minui %[[ROOM]], %[[ONE]] : index
// CHECK-NEXT:          %[[I:.*]] = memref.load %{{.*}}[%[[AT]]] : memref<8xi32, "L1">
// CHECK-NEXT:          %[[CAST:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:          %[[INDEX:.*]] = arith.muli %[[CAST]], %[[INSIDE]] : index
// CHECK-NEXT:          %[[ROWS:.*]] = arith.constant 100 : index
// CHECK-NEXT:          %{{.*}} = arith.minui %[[INDEX]], %[[ROWS]] : index
// CHECK:         ktdf.stage
// CHECK:             scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[T:.*]] = affine.apply #{{.*}}(%[[N]], %{{.*}})
// CHECK-NEXT:          %[[J:.*]] = memref.load %{{.*}}[%[[T]]] : memref<8xi32, "L1">
// CHECK-NEXT:          %[[CAST2:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK-NEXT:          arith.constant 100 : index
// CHECK-NOT:     construct_indirect_access_tile
