// A reduce of two partials (a sum and a maximum of the same tiles): each partial has
// its own receive buffer, its own store into the tile's slot (one slot table for
// both) and its own ring copy; the fold loads both partials of every slot and applies
// the combiner to the pairs in slot order, from the first slot (no identity), so
// each result is its own fold.

// RUN: ktc-opt %s --arch toy -p inter-tile-reduce-lowering | filecheck %s

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @reduce(%s: f16, %t: f32) attributes {grid = [2]} {
  %d = tensor.splat %s : tensor<2xf16>
  %w = tensor.splat %t : tensor<2xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<2xf16>, tensor<2xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d, %w : tensor<2xf16>, tensor<2xf32>
  }
  %sum, %max = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity() : !ktdp.tile_future<(tensor<2xf16>, tensor<2xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<2xf16>, tensor<2xf32> {
  ^bb0(%ls: tensor<2xf16>, %lm: tensor<2xf32>, %rs: tensor<2xf16>, %rm: tensor<2xf32>):
    %a = arith.addf %ls, %rs : tensor<2xf16>
    %m = arith.maximumf %lm, %rm : tensor<2xf32>
    ktdp.yield_reduced %a, %m : tensor<2xf16>, tensor<2xf32>
  }
  %e = arith.negf %sum : tensor<2xf16>
  %g = arith.negf %max : tensor<2xf32>
  return
}

// CHECK:       func.func @reduce(%s: f16, %t: f32) attributes {grid = [2]} {
// CHECK-NEXT:    %received1 = memref.alloc() : memref<4xf32, "L1">
// CHECK-NEXT:    %received0 = memref.alloc() : memref<4xf16, "L1">
// CHECK:         %[[SLOT:.+]] = ktdf.tile_table %{{.+}} {values = array<i64: 0, 1>} : index
// CHECK-NEXT:    %[[ROWS:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ROW:.+]] = arith.muli %[[SLOT]], %[[ROWS]] : index
// CHECK-NEXT:    %[[OWN:.+]] = ktdp.construct_access_tile %received0[%[[ROW]]]
// CHECK-NEXT:    ktdp.store %d, %[[OWN]]
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           ktdf.data_transfer from %received0[%[[ROW]]] size [2] to %received0[%[[ROW]]] size [2] {ktdf.to_tiles = array<i64: -1, 0>}
// CHECK:         %[[ROWS1:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ROW1:.+]] = arith.muli %[[SLOT]], %[[ROWS1]] : index
// CHECK-NEXT:    %[[OWN1:.+]] = ktdp.construct_access_tile %received1[%[[ROW1]]]
// CHECK-NEXT:    ktdp.store %w, %[[OWN1]]
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           ktdf.data_transfer from %received1[%[[ROW1]]] size [2] to %received1[%[[ROW1]]] size [2] {ktdf.to_tiles = array<i64: -1, 0>}
// CHECK:         %slot0_partial0 = ktdp.load
// CHECK:         %slot0_partial1 = ktdp.load
// CHECK:         %slot1_partial0 = ktdp.load
// CHECK:         %slot1_partial1 = ktdp.load
// CHECK-NEXT:    %[[A:.+]] = arith.addf %slot0_partial0, %slot1_partial0 : tensor<2xf16>
// CHECK-NEXT:    %[[M:.+]] = arith.maximumf %slot0_partial1, %slot1_partial1 : tensor<2xf32>
// CHECK-NEXT:    %e = arith.negf %[[A]] : tensor<2xf16>
// CHECK-NEXT:    %g = arith.negf %[[M]] : tensor<2xf32>
// CHECK-NOT:     ktdp.inter_tile
