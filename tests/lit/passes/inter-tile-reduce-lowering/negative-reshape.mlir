// A reduce whose identity or result is its partial reshaped by unit dimensions (the
// ktdp dialect and the reference accept it, as IBM's interpreter does) is rejected at
// the reduce: the pipeline does not reshape tensors yet.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p inter-tile-reduce-lowering

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @result(%s: f16) attributes {grid = [2]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_reduce' reshapes its partial (by dimensions of extent 1); that is not supported yet: give its identity and results the partial's type and reshape the result after it}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity() : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  return
}

// -----

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @identity(%s: f16, %z: tensor<64xf16>) attributes {grid = [2]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  // expected-error@+1 {{'ktdp.inter_tile_reduce' reshapes its partial (by dimensions of extent 1); that is not supported yet: give its identity and results the partial's type and reshape the result after it}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity(%z : tensor<64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  return
}
