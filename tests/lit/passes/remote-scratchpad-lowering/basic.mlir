// Both tiles read row 1 of tile 0's scratchpad view at byte 256: a receive buffer of
// the tile's shape is allocated at the function's start; one pipeline per reader rank
// on the ring stop copies the row from a view of the same bytes in the executing
// tile's own scratchpad into the buffer of the tile its table names (rank 0: tile 0
// into its own buffer, rank 1: tile 0 into tile 1's; -1: tile 1 copies nothing); the
// load reads the whole buffer. A load of the tile's own scratchpad is left alone.

// RUN: ktc-opt %s --arch toy -p remote-scratchpad-lowering | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_tile0(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %at = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %theirs = ktdp.construct_memory_view %at, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x8xf16>
  %mine = ktdp.construct_memory_view %at, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local>} : memref<2x8xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %rt = ktdp.construct_access_tile %theirs[%c1, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %mt = ktdp.construct_access_tile %mine[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %r = ktdp.load %rt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %m = ktdp.load %mt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %s = arith.addf %r, %m : tensor<1x8xf16>
  ktdp.store %s, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}

// CHECK-LABEL: func.func @read_tile0
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK-NOT:     ct_id
// CHECK:         %[[OWN:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [2, 8], strides: [8, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>} : memref<2x8xf16, "L1">
// CHECK:         %[[ROW:.*]] = arith.constant 1 : index
// CHECK:         ktdf.pipeline
// CHECK:           ktdf.data_transfer from %[[OWN]][%[[ROW]], %{{.*}}] size [1, 8] to %[[BUF]][0, 0] size [1, 8] {ktdf.to_tiles = array<i64: 0, -1>}
// CHECK-NEXT:    } {applicable_units = ["RING"]}
// CHECK:         ktdf.pipeline
// CHECK:           ktdf.data_transfer from %[[OWN]][%{{.*}}, %{{.*}}] size [1, 8] to %[[BUF]][0, 0] size [1, 8] {ktdf.to_tiles = array<i64: 1, -1>}
// CHECK:         %[[WHOLE:.*]] = ktdp.construct_access_tile %[[BUF]][0, 0]
// CHECK:         %{{.*}} = ktdp.load %[[WHOLE]]
// CHECK:         %{{.*}} = ktdp.load %mt
// CHECK-NOT:     ktdf.pipeline
