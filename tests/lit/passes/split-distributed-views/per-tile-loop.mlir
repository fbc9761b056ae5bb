// Each of 2 tiles copies its 4 rows of a distributed view of two arrays in two steps
// of 2 rows (scf.for from 0 to 4 step 2, rows 4t + i): on each tile the loop's rows
// (i is 0 or 2: the last multiple of the step below the bound) stay in one partition,
// so the copy reads, like a load at a constant start, one view whose start is chosen
// per tile (x0 * [t == 0] + x1 * [t == 1]) at row 4t + i minus that partition's first
// row: one copy, no copy per partition.

// RUN: ktc-opt %s --arch spyre -p split-distributed-views | filecheck %s

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @per_tile_loop(%x0: index, %x1: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %first = arith.muli %t, %c4 : index
    %v0 = ktdp.construct_memory_view %x0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %v1 = ktdp.construct_memory_view %x1, sizes: [4, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %x = ktdp.construct_distributed_memory_view(%v0, %v1 : memref<4x64xf16>, memref<4x64xf16>) : memref<8x64xf16>
    %yv = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    scf.for %i = %c0 to %c4 step %c2 {
      %r = arith.addi %first, %i : index
      %xt = ktdp.construct_access_tile %x[%r, %c0] {access_tile_set = #two, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
      %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #two, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
      %a = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
      ktdp.store %a, %yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    }
    return
  }
}

// CHECK-NOT:   ktdp.construct_distributed_memory_view
// CHECK:       scf.for %[[I:.*]] = %c0 to %c4 step %c2 {
// CHECK:         %[[R:.*]] = arith.addi %first, %[[I]] : index
// CHECK:         %[[T0:.*]] = ktdf.tile_table %[[LINEAR:.*]] {values = array<i64: 1, 0>} : index
// CHECK:         arith.muli %[[T0]], %x0 : index
// CHECK:         %[[T1:.*]] = ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 1>} : index
// CHECK:         arith.muli %[[T1]], %x1 : index
// CHECK:         %[[START:.*]] = arith.addi
// CHECK:         %[[LOCAL:.*]] = ktdp.construct_memory_view %[[START]], sizes: [4, 64], strides: [64, 1]
// CHECK:         %[[LOW:.*]] = ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 4>} : index
// CHECK:         %[[ROW:.*]] = arith.subi %[[R]], %[[LOW]] : index
// CHECK:         %[[TILE:.*]] = ktdp.construct_access_tile %[[LOCAL]][%[[ROW]], %{{.*}}]
// CHECK:         %[[A:.*]] = ktdp.load %[[TILE]]
// CHECK-NOT:     ktdp.load
// CHECK:         ktdp.store %[[A]]
// CHECK-NOT:     ktdp.store
