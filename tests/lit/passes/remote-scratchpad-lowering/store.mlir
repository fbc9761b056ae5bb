// Both tiles store a row into row t of tile 1's scratchpad view at element 256: a send
// buffer of the row's shape is allocated at the function's start and the store writes
// all of it; after the store one pipeline on the ring stop copies the whole buffer into
// a view of the same bytes in the owner's scratchpad (ct_local without ct_id), at the
// tile's row (a tile table), into the scratchpad of the tile its table names (tile 1
// for both: tile 1 copies through its own stop).

// RUN: ktc-opt %s --arch toy -p remote-scratchpad-lowering | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @store_tile1(%x: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %at = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %theirs = ktdp.construct_memory_view %at, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x8xf16>
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %st = ktdp.construct_access_tile %theirs[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  ktdp.store %a, %st : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}

// CHECK-LABEL: func.func @store_tile1
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK:         %[[WHOLE:.*]] = ktdp.construct_access_tile %[[BUF]][0, 0]
// CHECK:         ktdp.store %{{.*}}, %[[WHOLE]]
// CHECK-NOT:     ct_id
// CHECK:         %[[OWN:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [2, 8], strides: [8, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>} : memref<2x8xf16, "L1">
// CHECK:         %[[ROW:.*]] = ktdf.tile_table %{{.*}} {values = array<i64: 0, 1>}
// CHECK:         ktdf.pipeline
// CHECK:           ktdf.data_transfer from %[[BUF]][0, 0] size [1, 8] to %[[OWN]][%[[ROW]], %{{.*}}] size [1, 8] {ktdf.to_tiles = array<i64: 1, 1>}
// CHECK-NEXT:    } {applicable_units = ["RING"]}
// CHECK-NOT:     ktdf.pipeline
