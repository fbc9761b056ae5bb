// Tiles and tensors must have static shapes: the pipeline tiles them to the SIMD
// width at compile time.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#vector = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @dynamic_tile(%x: index, %n: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  // expected-error@+1 {{'ktdp.construct_access_tile' produces !ktdp.access_tile<?xindex>; tile shapes must be static}}
  %tile = ktdp.construct_access_tile %view[%c0] symbols(%n) {access_tile_set = #vector, access_tile_order = #identity} : memref<?xf16> -> !ktdp.access_tile<?xindex>
  return
}

// -----

func.func @dynamic_tensor(%n: index) {
  // expected-error@+1 {{'tensor.empty' produces tensor<?xf16>; tile shapes must be static}}
  %t = tensor.empty(%n) : tensor<?xf16>
  return
}
