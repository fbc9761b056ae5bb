// Loads the pass leaves as they are: a copy whose 32 KiB tile fits toy's 64 KiB
// scratchpad (the three-stage pipeline moves it); a 96 KiB tile computed on before it
// is stored, which is no copy (address-assignment checks its capacity); and a copy
// with another store between its load and its store (the source read where the store
// is might not read what the load read).

// RUN: ktc-opt %s --arch toy -p stream-copies | filecheck %s

#small = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#big = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @fits
// CHECK-NOT:     ktdf.pipeline
// CHECK:         ktdp.load
// CHECK:         ktdp.store
func.func @fits(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [128, 128], strides: [128, 1] {coordinate_set = #small, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [128, 128], strides: [128, 1] {coordinate_set = #small, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #small, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<128x128xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #small, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<128x128xindex>
  %d = ktdp.load %xt : !ktdp.access_tile<128x128xindex> -> tensor<128x128xf16>
  ktdp.store %d, %yt : tensor<128x128xf16>, !ktdp.access_tile<128x128xindex>
  return
}

// CHECK-LABEL: func.func @computed
// CHECK-NOT:     ktdf.pipeline
// CHECK:         %[[D:.*]] = ktdp.load
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[D]], %[[D]]
// CHECK-NEXT:    ktdp.store %[[T]]
func.func @computed(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %d = ktdp.load %xt : !ktdp.access_tile<3x128x128xindex> -> tensor<3x128x128xf16>
  %t = arith.addf %d, %d : tensor<3x128x128xf16>
  ktdp.store %t, %yt : tensor<3x128x128xf16>, !ktdp.access_tile<3x128x128xindex>
  return
}

// CHECK-LABEL: func.func @stored_between
// CHECK-NOT:     ktdf.pipeline
// CHECK:         %[[D:.*]] = ktdp.load %xt
// CHECK:         ktdp.store %twice, %xt
// CHECK-NEXT:    ktdp.store %[[D]], %yt
func.func @stored_between(%x: index, %y: index, %z: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %zv = ktdp.construct_memory_view %z, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %zt = ktdp.construct_access_tile %zv[%c0, %c0, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %d = ktdp.load %xt : !ktdp.access_tile<3x128x128xindex> -> tensor<3x128x128xf16>
  %e = ktdp.load %zt : !ktdp.access_tile<3x128x128xindex> -> tensor<3x128x128xf16>
  %twice = arith.addf %e, %e : tensor<3x128x128xf16>
  ktdp.store %twice, %xt : tensor<3x128x128xf16>, !ktdp.access_tile<3x128x128xindex>
  ktdp.store %d, %yt : tensor<3x128x128xf16>, !ktdp.access_tile<3x128x128xindex>
  return
}
