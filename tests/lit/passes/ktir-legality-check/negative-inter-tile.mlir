// Inter-tile forms the pipeline does not lower yet are rejected at the op: an
// all-reduce (every producer a consumer), inter_tile_consume, a reduce inside a loop,
// and a reduce with producer_dependency_per_consumer. (A grid too large for the device
// to run communicating tiles at once is reported first: see negative-grid.mlir; a
// reduce-to-one is accepted: see basic.mlir of inter-tile-reduce-lowering.)

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
func.func @all_reduce(%partial: f16) attributes {grid = [2]} {
  %d = tensor.splat %partial : tensor<1x64xf16>
  %z = tensor.splat %partial : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_reduce' has 2 consumer tiles in group 0; only reduce-to-one (one consumer per group) is supported yet}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @consume(%partial: f16) attributes {grid = [2]} {
  %d = tensor.splat %partial : tensor<1x64xf16>
  // expected-error@+1 {{'ktdp.inter_tile_produce' must have exactly one use, by a ktdp.inter_tile_reduce in the same block (inter_tile_consume is not supported yet)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #first -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pair : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  return
}

// -----

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @in_loop(%partial: f16, %n: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %d = tensor.splat %partial : tensor<1x64xf16>
    // expected-error@+1 {{'ktdp.inter_tile_produce' inside 'scf.for' is not supported yet: inter-tile ops must be at the kernel's top level}}
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %d : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
      %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
  }
  return
}

// -----

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
#from_one = affine_set<(p)[c] : (p - 1 == 0)>
func.func @dependency(%partial: f16) attributes {grid = [2]} {
  %d = tensor.splat %partial : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_reduce' with producer_dependency_per_consumer is not supported yet: every producer of a group is combined}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, producer_dependency_per_consumer = #from_one, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
