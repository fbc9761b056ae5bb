// Reduce forms the lowering cannot give one SPMD receive buffer are rejected at the
// op: groups with different producer counts, a consumer that is not one of its
// group's producers, and a group without a consumer.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch spyre -p inter-tile-reduce-lowering

#uneven = affine_set<(t)[g] : (t - g >= 0, 2 * g - t >= 0)>
#lowest = affine_set<(t)[g] : (t - g == 0)>
func.func @uneven(%s: f16) attributes {grid = [3]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  // expected-error@+1 {{'ktdp.inter_tile_produce' groups have 1, 2 producers; every group must have as many}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #uneven -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #lowest, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  return
}

// -----

#pair = affine_set<(t)[g] : (t >= 0, 1 - t >= 0)>
#outside = affine_set<(t)[g] : (t - 2 == 0)>
func.func @outside(%s: f16) attributes {grid = [3]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_reduce' consumer tile 2 of group 0 is not one of its producers}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #outside, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  return
}

// -----

#pairs = affine_set<(t)[g] : (t - 2 * g >= 0, 2 * g + 1 - t >= 0)>
#first_only = affine_set<(t)[g] : (t == 0, g == 0)>
func.func @no_consumer(%s: f16) attributes {grid = [4]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_reduce' has no consumer tile in group 1}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first_only, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  return
}
