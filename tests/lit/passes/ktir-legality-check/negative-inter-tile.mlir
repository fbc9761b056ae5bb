// Tiles that exchange partial results (ktdp.inter_tile_*) are rejected: the
// pipeline schedules tiles that do not communicate. (A grid too large for the
// device to run such tiles at once is reported first: see negative-grid.mlir.)

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p ktir-legality-check

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
func.func @reduce_across_tiles(%partial: f16) attributes {grid = [2]} {
  %d = tensor.splat %partial : tensor<1x64xf16>
  %z = tensor.splat %partial : tensor<1x64xf16>
  // expected-error@+1 {{'ktdp.inter_tile_produce' is not supported yet: the pipeline schedules tiles that do not communicate}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

