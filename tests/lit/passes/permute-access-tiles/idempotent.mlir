// Tiles in the identity order, such as those this pass leaves, are left as they
// are: a second run prints what the first did.

// RUN: ktc-opt %s -p permute-access-tiles > %t
// RUN: ktc-opt %t -p permute-access-tiles | diff %t -
// RUN: filecheck %s < %t

#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [64, 32], strides: [32, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #xs, access_tile_order = #tr} : memref<64x32xf16> -> !ktdp.access_tile<32x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  return
}

// CHECK: %xv_permuted = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [1, 32]
// CHECK: ktdp.construct_access_tile %xv_permuted[%c0, %c0]
