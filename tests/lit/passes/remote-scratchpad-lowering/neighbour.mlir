// A load marked ktdf.from_tiles (as split-distributed-views leaves a read of a
// distributed view whose rows lie one in each tile's scratchpad): tile t reads row 0
// of tile (t + 1) mod 2's view. Each owner copies to its one reader in a single rank
// (table [1, 0]); the per-tile starts are equal, so they are constants; the mark is
// gone from the load of the buffer.

// RUN: ktc-opt %s --arch toy -p remote-scratchpad-lowering | filecheck %s

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @neighbour(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %at = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %view = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x8xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16>
  %rt = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %r = ktdp.load %rt {ktdf.from_tiles = array<i64: 1, 0>} : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  ktdp.store %r, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}

// CHECK-LABEL: func.func @neighbour
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<1x8xf16, "L1">
// CHECK:         %[[OWN:.*]] = ktdp.construct_memory_view {{.*}} : memref<1x8xf16, "L1">
// CHECK:         ktdf.pipeline
// CHECK:           ktdf.data_transfer from %[[OWN]][%{{.*}}, %{{.*}}] size [1, 8] to %[[BUF]][0, 0] size [1, 8] {ktdf.to_tiles = array<i64: 1, 0>}
// CHECK-NOT:     ktdf.pipeline
// CHECK:         %[[WHOLE:.*]] = ktdp.construct_access_tile %[[BUF]][0, 0]
// CHECK:         %{{.*}} = ktdp.load %[[WHOLE]] : <1x8xindex> -> tensor<1x8xf16>
// CHECK-NOT:     from_tiles
