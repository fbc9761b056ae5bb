// On a 2x2 grid each tile reads rows 4t..4t+3 (t = x + 2y) of a distributed view of
// four arrays of 4 rows: no one partition holds them for every tile, but on each tile
// one does, and the partitions differ only in their start. The load reads a view whose
// start is x0 * [t == 0] + x1 * [t == 1] + ... (tile tables over the linear tile id,
// x fastest) at row 4t minus that partition's first row (a table too).

// RUN: ktc-opt %s --arch spyre -p split-distributed-views | filecheck %s

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @per_tile(%x0: index, %x1: index, %x2: index, %x3: index, %y: index) attributes {grid = [2, 2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tx, %ty = ktdp.get_compute_tile_id : index, index
    %ty2 = arith.muli %ty, %c2 : index
    %t = arith.addi %tx, %ty2 : index
    %row = arith.muli %t, %c4 : index
    %v0 = ktdp.construct_memory_view %x0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %v1 = ktdp.construct_memory_view %x1, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %v2 = ktdp.construct_memory_view %x2, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p2, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %v3 = ktdp.construct_memory_view %x3, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p3, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %x = ktdp.construct_distributed_memory_view(%v0, %v1, %v2, %v3 : memref<4x64xf16>, memref<4x64xf16>, memref<4x64xf16>, memref<4x64xf16>) : memref<16x64xf16>
    %yv = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %xt = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %yt = ktdp.construct_access_tile %yv[%row, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %b = arith.addf %a, %a : tensor<4x64xf16>
    ktdp.store %b, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
    return
  }
}

// CHECK-NOT:   ktdp.construct_distributed_memory_view
// CHECK:       %[[IDS:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK:       %[[LINEAR:.*]] = arith.addi
// CHECK:       %[[T0:.*]] = ktdf.tile_table %[[LINEAR]] {values = array<i64: 1, 0, 0, 0>} : index
// CHECK:       arith.muli %[[T0]], %x0 : index
// CHECK:       ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 1, 0, 0>} : index
// CHECK:       ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 0, 1, 0>} : index
// CHECK:       ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 0, 0, 1>} : index
// CHECK:       %[[START:.*]] = arith.addi
// CHECK:       %[[LOCAL:.*]] = ktdp.construct_memory_view %[[START]], sizes: [4, 64], strides: [64, 1]
// CHECK:       %[[FIRST:.*]] = ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 4, 8, 12>} : index
// CHECK:       %[[AT:.*]] = arith.subi %row, %[[FIRST]] : index
// CHECK:       %[[TILE:.*]] = ktdp.construct_access_tile %[[LOCAL]][%[[AT]], %{{.*}}]
// CHECK:       ktdp.load %[[TILE]]
