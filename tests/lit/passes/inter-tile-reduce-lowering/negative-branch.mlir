// A reduce inside an scf.if is rejected at the producer: inter-tile ops are lowered
// at the kernel's top level and in scf.for loops only.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p inter-tile-reduce-lowering

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @in_branch(%s: f16, %go: i1) attributes {grid = [2]} {
  scf.if %go {
    %d = tensor.splat %s : tensor<1x64xf16>
    // expected-error@+1 {{'ktdp.inter_tile_produce' inside 'scf.if' is not supported yet: inter-tile ops must be at the kernel's top level or in scf.for loops}}
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %d : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
      %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
      ktdp.yield_reduced %m : tensor<1x64xf16>
    }
  }
  return
}
