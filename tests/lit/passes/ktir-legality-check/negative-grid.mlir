// A grid must fit the device under the documented policy (Device.place_grid):
// tiles beyond the core count run in later waves, but tiles that communicate must
// all run at once, so toy (2 cores) rejects four communicating tiles where line4
// (4 cores) takes them and rejects the produce whose partials nobody reduces. A grid needs
// positive integer sizes (ktdp's checked grid_of says which rule it breaks).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check
// RUN: not ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=LINE4

#four = affine_set<(t)[g] : (t >= 0, -t + 3 >= 0)>
// expected-error@+1 {{'func.func' @communicating cannot run on device @toy: grid [4] has 4 tiles that communicate, but device @toy has 2 cores to run them at once}}
func.func @communicating(%partial: f16) attributes {grid = [4]} {
  %d = tensor.splat %partial : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  return
}

// LINE4-NOT:  grid [4]
// LINE4:      error: 'ktdp.inter_tile_produce' must have exactly one use, by a ktdp.inter_tile_reduce

// -----

// expected-error@+1 {{grid size must be positive (got 0) in @empty}}
func.func @empty() attributes {grid = [4, 0]} {
  return
}

// LINE4:      negative-grid.mlir:27:1: error: grid size must be positive (got 0) in @empty

// -----

// expected-error@+1 {{grid ["x"] of @named is not a list of integers}}
func.func @named() attributes {grid = ["x"]} {
  return
}

// LINE4:      negative-grid.mlir:36:1: error: grid ["x"] of @named is not a list of integers
