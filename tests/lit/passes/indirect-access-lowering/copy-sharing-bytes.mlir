// A copy of rows (runs of 64 elements, which stream at any size) between two views of
// one array (@same_array) is gathered whole into a tile buffer and stored from it, as
// one whose two sides may share bytes must be: streamed, a row would be written before
// a later row is read. The same copy between views at constant addresses whose bytes
// are apart (@apart, one of its sizes an SSA constant, as the corpus writes them)
// streams, a row at a time through a buffer of one row.

// RUN: ktc-opt %s --arch toy -p indirect-access-lowering | filecheck %s

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @same_array(%table: index, %ids: index) {
  %c0 = arith.constant 0 : index
  %tv = ktdp.construct_memory_view %table, sizes: [100, 64], strides: [64, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %iv = ktdp.construct_memory_view %ids, sizes: [8], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %first = ktdp.construct_memory_view %table, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %it = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %tv[ind(%iv[%m]), (%k)] {
    variables_space_set = #rows, variables_space_order = #identity
  } : memref<100x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %dt = ktdp.construct_access_tile %first[%c0, %c0] {access_tile_set = #rows, access_tile_order = #identity} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %it : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  ktdp.store %v, %dt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}

// CHECK-LABEL: func.func @same_array
// CHECK:         %[[TILE:.*]] = memref.alloc() : memref<8x64xf16, "L1">
// CHECK-NOT:     memref<1x64xf16, "L1">
// CHECK:         %[[LOADED:.*]] = ktdp.load %{{.*}} : <8x64xindex> -> tensor<8x64xf16>
// CHECK:         ktdp.store %[[LOADED]], %{{.*}} : tensor<8x64xf16>, <8x64xindex>

func.func @apart() {
  %c0 = arith.constant 0 : index
  %table_at = arith.constant 0 : index
  %ids_at = arith.constant 4096 : index
  %out_at = arith.constant 6400 : index
  %c100 = arith.constant 100 : index
  %tv = ktdp.construct_memory_view %table_at, sizes: [%c100, 64], strides: [64, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %iv = ktdp.construct_memory_view %ids_at, sizes: [8], strides: [1] {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %ov = ktdp.construct_memory_view %out_at, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %it = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %tv[ind(%iv[%m]), (%k)] {
    variables_space_set = #rows, variables_space_order = #identity
  } : memref<100x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %dt = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #rows, access_tile_order = #identity} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %it : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  ktdp.store %v, %dt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}

// CHECK-LABEL: func.func @apart
// CHECK-NOT:     memref<8x64xf16, "L1">
// CHECK:         scf.for
// CHECK:           memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NOT:     ktdp.load
// CHECK-NOT:     ktdp.store
