// Reshapes and slices of what is neither loaded nor elementwise compute, a reshape
// of a tile that may be masked, a rank-0 tensor of a tile computed on, a slice reading part of an inserted piece and part of
// its destination, and an assembled tensor used by compute are refused at the op,
// with what the compiler folds instead.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics -p fold-reshapes-and-slices

#rs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @of_a_reduction(%r: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %rv = ktdp.construct_memory_view %r, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %rt = ktdp.construct_access_tile %rv[%c0, %c0] {access_tile_set = #rs, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %rows = ktdp.load %rt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %init = tensor.splat %zero : tensor<8xf32>
  %total = linalg.reduce ins(%rows : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%p: f32, %q: f32) {
      %add = arith.addf %p, %q : f32
      linalg.yield %add : f32
    }
  // expected-error@+1 {{'tensor.expand_shape' reshapes the result of 'linalg.reduce'; the compiler folds reshapes and slices into the access tiles of loads and stores, through elementwise compute only: move it to the load or the store}}
  %grid = tensor.expand_shape %total [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e = math.exp %grid : tensor<2x4xf32>
  return
}

// -----

#rs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @maybe_masked(%r: index, %i: index) {
  %c0 = arith.constant 0 : index
  %rv = ktdp.construct_memory_view %r, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %rt = ktdp.construct_access_tile %rv[%i, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %rt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
  // expected-error@+1 {{'tensor.collapse_shape' reshapes a tile that may reach outside its view's coordinate set (a masked access), which a reshaped view cannot mask; keep the tile inside the view for every value of its indices}}
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
  %e = math.exp %b : tensor<64xf32>
  return
}

// -----

func.func @straddling(%s: f32, %t: f32) {
  %a = tensor.splat %s : tensor<8x64xf32>
  %p = tensor.splat %t : tensor<2x64xf32>
  %w = tensor.insert_slice %p into %a[2, 0] [2, 64] [1, 1] : tensor<2x64xf32> into tensor<8x64xf32>
  // expected-error@+1 {{'tensor.extract_slice' reads part of the piece of the 'tensor.insert_slice' at}}
  %x = tensor.extract_slice %w[3, 0] [2, 64] [1, 1] : tensor<8x64xf32> to tensor<2x64xf32>
  %e = math.exp %x : tensor<2x64xf32>
  return
}

// -----

func.func @assembled(%s: f32, %t: f32) {
  %a = tensor.splat %s : tensor<8x64xf32>
  %p = tensor.splat %t : tensor<2x64xf32>
  // expected-error@+1 {{'tensor.insert_slice' is used by 'math.exp' at}}
  %w = tensor.insert_slice %p into %a[2, 0] [2, 64] [1, 1] : tensor<2x64xf32> into tensor<8x64xf32>
  %e = math.exp %w : tensor<8x64xf32>
  return
}

// -----

#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rank_zero(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 1], strides: [1, 1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1x1xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #one, access_tile_order = #id2} : memref<1x1xf32> -> !ktdp.access_tile<1x1xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf32>
  // expected-error@+1 {{'tensor.collapse_shape' makes a rank-0 tensor of a loaded tile that is computed on; the compiler computes on tensors of rank 1 or more: keep the unit dimensions, or read the element with tensor.extract or a broadcast}}
  %s = tensor.collapse_shape %a [] : tensor<1x1xf32> into tensor<f32>
  %e = math.exp %s : tensor<f32>
  return
}
