// Tiles and tensors must have static shapes: the pipeline tiles them to the SIMD
// width at compile time; an access tile's set must hold its type's points.

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

// -----

// A static tile whose set holds fewer points than its type: the compiler would move
// the type's whole box, rows 30 and 31 included, which the set leaves out.

#rows30 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 29 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unfilled_tile(%x: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  // expected-error@+1 {{'ktdp.construct_access_tile' has an access_tile_set of 1920 points (30x64) for a tile type of 2048 (<32x64>); the compiler moves the type's whole tile: give the tile its set's shape}}
  %tile = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #rows30, access_tile_order = #identity2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}

// -----

// The same tile with its set's extent a launch argument: refused, since a launch
// with fewer rows would have the whole tile moved all the same.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @launch_sized_set(%x: index, %m: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  // expected-error@+1 {{'ktdp.construct_access_tile' has an access_tile_set whose extents depend on %m, known only at launch; the compiler moves whole tiles of static shape: give the tile its largest size and bound the memory view's coordinate_set by the run-time size, which masks the coordinates past it}}
  %tile = ktdp.construct_access_tile %view[%c0, %c0] symbols(%m) {access_tile_set = #rows, access_tile_order = #identity2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  return
}
