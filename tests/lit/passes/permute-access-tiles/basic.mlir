// A tile read in a permuted order becomes a tile in the identity order of a view
// beside it whose dimensions are the original's permuted: sizes, strides, coordinate
// set and start follow the permutation, the set's symbols follow the dynamic sizes
// they bind. The original view stays while an identity tile still uses it, and goes
// when none does.

// RUN: ktc-opt %s -p permute-access-tiles | filecheck %s

#box = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#cube = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#row = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @orders(%x: index, %z: index, %m: index, %k: index, %i: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [%m, %k], strides: [16, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<?x?xf32>
  %xt = ktdp.construct_access_tile %xv[%i + 1, %c0] {access_tile_set = #tile, access_tile_order = #tr} : memref<?x?xf32> -> !ktdp.access_tile<16x64xindex>
  %xi = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id} : memref<?x?xf32> -> !ktdp.access_tile<64x16xindex>
  %zv = ktdp.construct_memory_view %z, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #cube, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %zt = ktdp.construct_access_tile %zv[%i, %c0, %c0] {access_tile_set = #row, access_tile_order = #swap} : memref<4x8x64xf16> -> !ktdp.access_tile<1x64x8xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf32>
  %b = ktdp.load %xi : !ktdp.access_tile<64x16xindex> -> tensor<64x16xf32>
  %c = ktdp.load %zt : !ktdp.access_tile<1x64x8xindex> -> tensor<1x64x8xf16>
  return
}

// CHECK-DAG:   #[[XSET:.+]] = affine_set<(d0, d1)[s0, s1] : (d1 >= 0, -d1 + s1 - 1 >= 0, d0 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-DAG:   #[[TSET:.+]] = affine_set<(d0, d1) : (d1 >= 0, -d1 + 63 >= 0, d0 >= 0, -d0 + 15 >= 0)>
// CHECK-DAG:   #[[ZSET:.+]] = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-LABEL: func.func @orders(
// CHECK:         %xv = ktdp.construct_memory_view %x, sizes: [%m, %k], strides: [16, 1]
// CHECK-NEXT:    %xv_permuted = ktdp.construct_memory_view %x, sizes: [%k, %m], strides: [1, 16] {coordinate_set = #[[XSET]], memory_space = #ktdp.memory_space<global>} : memref<?x?xf32>
// CHECK-NEXT:    %xt = ktdp.construct_access_tile %xv_permuted[%c0, %i + 1] {access_tile_order = #{{.+}}, access_tile_set = #[[TSET]]} : memref<?x?xf32> -> !ktdp.access_tile<16x64xindex>
// CHECK-NEXT:    %xi = ktdp.construct_access_tile %xv[%c0, %c0]
// CHECK-NOT:     %zv =
// CHECK:         %zv_permuted = ktdp.construct_memory_view %z, sizes: [4, 64, 8], strides: [512, 1, 64] {coordinate_set = #[[ZSET]], memory_space = #ktdp.memory_space<global>} : memref<4x64x8xf16>
// CHECK-NEXT:    %zt = ktdp.construct_access_tile %zv_permuted[%i, %c0, %c0]
// CHECK-NOT:     access_tile_order = #tr
