// A read of another tile's scratchpad at a start computed from a loop index and the
// tile id (row (i + t) mod 2 of tile 1's two rows): the owner makes each reader's
// copy, so before each rank's pipeline it recomputes the start with the reader's
// tile id in place of its own (rank 0's reader is tile 0, rank 1's tile 1: one reader
// per rank, so a constant; a ktdf.tile_table where the readers differ per owner),
// from the same loop index; the start in the view is the tile's indices through its
// base map (affine.apply).

// RUN: ktc-opt %s --arch toy -p remote-scratchpad-lowering | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rotating(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %at = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %theirs = ktdp.construct_memory_view %at, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x8xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  scf.for %i = %c0 to %c2 step %c1 {
    %s = arith.addi %i, %t : index
    %r = arith.remui %s, %c2 : index
    %rt = ktdp.construct_access_tile %theirs[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    %v = ktdp.load %rt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
    ktdp.store %v, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  }
  return
}

// CHECK-LABEL: func.func @rotating
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[T0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[S0:.*]] = arith.addi %[[I]], %[[T0]] : index
// CHECK-NEXT:      %[[TWO0:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[R0:.*]] = arith.remui %[[S0]], %[[TWO0]] : index
// CHECK:           %[[ROW0:.*]] = affine.apply #{{.*}}(%[[R0]], %{{.*}})
// CHECK:           ktdf.data_transfer from %{{.*}}[%[[ROW0]], %{{.*}}] size [1, 8] to %{{.*}}[0, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0>}
// CHECK:           %[[T1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[S1:.*]] = arith.addi %[[I]], %[[T1]] : index
// CHECK:           %[[R1:.*]] = arith.remui %[[S1]], %{{.*}} : index
// CHECK:           %[[ROW1:.*]] = affine.apply #{{.*}}(%[[R1]], %{{.*}})
// CHECK:           ktdf.data_transfer from %{{.*}}[%[[ROW1]], %{{.*}}] size [1, 8] to %{{.*}}[0, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 1>}
