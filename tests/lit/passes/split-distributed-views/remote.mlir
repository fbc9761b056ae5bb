// A load through a distributed view whose two rows lie one in each tile's scratchpad
// (ct_id 0 and 1, both at byte 256), tile t reading row (t + 1) mod 2 and adding to
// it: each tile's tile lies in the partition of the other tile. The load reads a
// ct_local view (no ct_id) whose start is chosen per tile (256 on both), at the tile's
// start minus its holder's first row (a tile table), and is marked ktdf.from_tiles
// with each tile's holder, [1, 0], for remote-scratchpad-lowering.

// RUN: ktc-opt %s --arch toy -p split-distributed-views | filecheck %s

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 1 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @neighbour(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %at = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %a0 = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x8xf16>
  %a1 = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x8xf16>
  %a = ktdp.construct_distributed_memory_view(%a0, %a1 : memref<1x8xf16>, memref<1x8xf16>) : memref<2x8xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 8], strides: [8, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %t1 = arith.addi %t, %c1 : index
  %n = arith.remui %t1, %c2 : index
  %rt = ktdp.construct_access_tile %a[%n, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
  %r = ktdp.load %rt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %d = arith.addf %r, %r : tensor<1x8xf16>
  ktdp.store %d, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}

// CHECK-LABEL: func.func @neighbour
// CHECK-NOT:     construct_distributed_memory_view
// CHECK-NOT:     ct_id
// CHECK:         %[[VIEW:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 8], strides: [8, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK:         %[[LOW:.*]] = ktdf.tile_table %{{.*}} {values = array<i64: 1, 0>} : index
// CHECK:         %[[ROW:.*]] = arith.subi %n, %[[LOW]] : index
// CHECK:         %[[TILE:.*]] = ktdp.construct_access_tile %[[VIEW]][%[[ROW]], %{{.*}}]
// CHECK:         %{{.*}} = ktdp.load %[[TILE]] {ktdf.from_tiles = array<i64: 1, 0>}
