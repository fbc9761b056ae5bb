// A distributed view of 12 rows in two partitions (rows 0..3 in device memory, rows
// 4..11 in the tile's scratchpad) becomes accesses of each partition's local view.
// A copy of the whole view at constant coordinates is one copy per partition of
// exactly its rows; a copy of rows %r..%r+3 (%r known at run time only) is one masked
// copy per partition: the tile read at max(%r, 4) - 4 and written through a view of
// B whose rows end where the tile or the partition ends; a load feeding compute whose
// tile lies in partition 1 for every tile id reads partition 1 at rows 4 + 2 * id - 4.

// RUN: ktc-opt %s --arch toy -p split-distributed-views | filecheck %s

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @copy(%A: index, %S: index, %B: index, %C: index, %r: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %a0 = ktdp.construct_memory_view %A, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %a1 = ktdp.construct_memory_view %S, sizes: [8, 16], strides: [16, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local>} : memref<8x16xf16>
    %a = ktdp.construct_distributed_memory_view(%a0, %a1 : memref<4x16xf16>, memref<8x16xf16>) : memref<12x16xf16>
    %b = ktdp.construct_memory_view %B, sizes: [12, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x16xf16>
    %c = ktdp.construct_memory_view %C, sizes: [4, 16], strides: [16, 1] {coordinate_set = #four, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %a_all = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #all, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<12x16xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #all, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<12x16xindex>
    %x = ktdp.load %a_all : !ktdp.access_tile<12x16xindex> -> tensor<12x16xf16>
    ktdp.store %x, %b_all : tensor<12x16xf16>, !ktdp.access_tile<12x16xindex>
    %a_r = ktdp.construct_access_tile %a[%r, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<4x16xindex>
    %b_r = ktdp.construct_access_tile %b[%r, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<4x16xindex>
    %y = ktdp.load %a_r : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
    ktdp.store %y, %b_r : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
    %id = ktdp.get_compute_tile_id : index
    %row = affine.apply affine_map<(d0) -> (d0 * 2 + 4)>(%id)
    %a_id = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #two, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<2x16xindex>
    %c_id = ktdp.construct_access_tile %c[%row, %c0] {access_tile_set = #two, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<2x16xindex>
    %z = ktdp.load %a_id : !ktdp.access_tile<2x16xindex> -> tensor<2x16xf16>
    %w = arith.addf %z, %z : tensor<2x16xf16>
    ktdp.store %w, %c_id : tensor<2x16xf16>, !ktdp.access_tile<2x16xindex>
    return
  }
}

// CHECK-DAG:   #[[P0:set[0-9]*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
// CHECK-DAG:   #[[P1:set[0-9]*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
// CHECK-NOT:   ktdp.construct_distributed_memory_view
// CHECK:       %[[L0:.*]] = ktdp.construct_memory_view %A, sizes: [4, 16], strides: [16, 1] {coordinate_set = #[[P0]], memory_space = #ktdp.memory_space<global>}
// CHECK:       %[[L1:.*]] = ktdp.construct_memory_view %S, sizes: [8, 16], strides: [16, 1] {coordinate_set = #[[P1]], memory_space = #ktdp.memory_space<ct_local>}
// Constant coordinates: rows 0..3 from partition 0, rows 4..11 from partition 1.
// CHECK:       %[[T0:.*]] = ktdp.construct_access_tile %[[L0]][%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x16xindex>
// CHECK:       %[[X0:.*]] = ktdp.load %[[T0]] : <4x16xindex> -> tensor<4x16xf16>
// CHECK:       %[[B0:.*]] = ktdp.construct_access_tile %b[%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x16xindex>
// CHECK:       ktdp.store %[[X0]], %[[B0]]
// CHECK:       %[[T1:.*]] = ktdp.construct_access_tile %[[L1]][%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<8x16xindex>
// CHECK:       %[[X1:.*]] = ktdp.load %[[T1]] : <8x16xindex> -> tensor<8x16xf16>
// CHECK:       ktdp.store %[[X1]], %{{.*}} : tensor<8x16xf16>
// Rows %r..%r+3: partition 1 read at max(%r, 4) - 4, written below min(12, %r + 4, %r + 12 - %r).
// CHECK:       arith.maxsi %r
// CHECK:       ktdp.construct_memory_view %B, sizes: [%{{.*}}, 16], strides: [16, 1] {{.*}} : memref<?x16xf16>
// CHECK:       ktdp.construct_access_tile %[[L0]]
// CHECK:       %[[Q:.*]] = arith.maxsi %r, %{{.*}} : index
// CHECK:       ktdp.construct_memory_view %B, sizes: [%{{.*}}, 16], strides: [16, 1] {{.*}} : memref<?x16xf16>
// CHECK:       %[[LOCAL:.*]] = arith.subi %[[Q]], %{{.*}} : index
// CHECK:       ktdp.construct_access_tile %[[L1]][%[[LOCAL]], %{{.*}}] {{.*}} -> !ktdp.access_tile<4x16xindex>
// The load feeding compute reads partition 1 at 2 * id + 4 - 4.
// CHECK:       %[[ROW:.*]] = affine.apply
// CHECK:       %[[AT:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:       %[[HELD:.*]] = ktdp.construct_access_tile %[[L1]][%[[AT]], %{{.*}}] {{.*}} -> !ktdp.access_tile<2x16xindex>
// CHECK:       ktdp.load %[[HELD]] : <2x16xindex> -> tensor<2x16xf16>
