// Loaded data that never reaches a ktdp.store in its own block computes nothing a
// program could deliver: the pass rejects it at the load (or at the loop that
// reads memory), also when the store sits in another block of the kernel.

// RUN: ktc-opt %s --split-input-file -p compute-group-extraction --verify-diagnostics

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @unused_load(%X: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  // expected-error@+1 {{the result of 'ktdp.load' reaches no ktdp.store in its block; a compute group must end in a store}}
  %a = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e = math.exp %a : tensor<64xf16>
  return
}

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @unused_reduction(%X: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  // expected-error@+1 {{the result of 'scf.for' reaches no ktdp.store in its block; a compute group must end in a store}}
  %sum = scf.for %i = %c0 to %c4096 step %c64 iter_args(%acc = %zero) -> (tensor<64xf16>) {
    %t = ktdp.construct_access_tile %view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %next = arith.addf %acc, %x : tensor<64xf16>
    scf.yield %next : tensor<64xf16>
  }
  return
}

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @unused_load_in_loop(%X: index, %Y: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  scf.for %i = %c0 to %c4096 step %c64 {
    %x_tile = ktdp.construct_access_tile %X_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %Y_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    ktdp.store %x, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    // expected-error@+1 {{the result of 'ktdp.load' reaches no ktdp.store}}
    %y = ktdp.load %y_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  }
  return
}

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @store_in_another_block(%X: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  // expected-error@+1 {{the result of 'ktdp.load' reaches no ktdp.store in its block}}
  %a = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  ktdp.store %a, %t0 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  cf.br ^bb2
^bb2:
  return
}
