// Compute may sit in straight-line code, scf.for loops and scf.if without results
// only, and a loop may carry tensors only (they become scratchpad buffers): a load
// under an scf.if that yields it, and a loop carrying a scalar, are reported at the op.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p materialize-phase-buffers

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %flag: i1) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    // expected-error@+1 {{'scf.if' holds loads, stores or tensor compute; a program holds them in straight-line code, 'scf.for' loops and 'scf.if' without results only}}
    %x = scf.if %flag -> (tensor<64xf16>) {
      %loaded = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      scf.yield %loaded : tensor<64xf16>
    } else {
      %other = ktdp.load %y_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      scf.yield %other : tensor<64xf16>
    }
    ktdp.store %x, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}

// -----

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f16
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    // expected-error@+1 {{'scf.for' carries a f16; the pipeline hands over tensors only}}
    %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f16) {
      %x_tile = ktdp.construct_access_tile %x_view[%i] {access_tile_set = #one, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<1xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1xindex> -> tensor<1xf16>
      %e = tensor.extract %x[%c0] : tensor<1xf16>
      %next = arith.addf %acc, %e : f16
      scf.yield %next : f16
    }
    %y_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #one, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    %y = tensor.splat %total : tensor<1xf16>
    ktdp.store %y, %y_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    func.return
  }
}
