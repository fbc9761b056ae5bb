// Inter-tile forms the pipeline does not lower yet are rejected at the op: a consume
// whose consumer depends on two producers (it delivers one contribution), a reduce
// inside an scf.if, and a reduce with producer_dependency_per_consumer. (A grid too large for the device to run
// communicating tiles at once is reported first: see negative-grid.mlir; reduce-to-one,
// reduce-to-subset and all-reduce are accepted, at the top level or in scf.for loops:
// see basic.mlir, several-consumers.mlir and in-loop.mlir of inter-tile-reduce-lowering,
// and a consume from one producer, consume.mlir.)

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
func.func @consume(%partial: f16) attributes {grid = [2]} {
  %d = tensor.splat %partial : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_consume' tile 0 of group 0 depends on 2 producers; inter_tile_consume delivers one contribution per consumer tile, so exactly one is required}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pair : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  return
}

// -----

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @in_branch(%partial: f16, %go: i1) attributes {grid = [2]} {
  scf.if %go {
    %d = tensor.splat %partial : tensor<1x64xf16>
    // expected-error@+1 {{'ktdp.inter_tile_produce' inside 'scf.if' is not supported yet: inter-tile ops must be at the kernel's top level or in scf.for loops}}
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
  // expected-error@+1 {{'ktdp.inter_tile_reduce' with producer_dependency_per_consumer is not supported yet: every producer of a group is combined; drop it and make each group the producers to combine (producer_tiles_per_group)}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, producer_dependency_per_consumer = #from_one, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
