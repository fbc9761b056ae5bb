// A copy through a view whose row stride %ld comes at launch: each DMA of a block of
// rows (toy: blocks of 8 lanes) is an engine loop over the block's rows, one DMA of
// a contiguous row each, at the address computed from the row's position times the
// stride's value (a symbol of the launch); the descriptors keep constant strides only.

// RUN: ktc-opt %s --arch toy -p ktir-to-dfir | filecheck %s

#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @pitched_copy(%x: index, %y: index, %ld: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [16, 32], strides: [%ld, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [16, 32], strides: [32, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #box, access_tile_order = #id} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #box, access_tile_order = #id} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %v = ktdp.load %xt : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  ktdp.store %v, %yt : tensor<16x32xf16>, !ktdp.access_tile<16x32xindex>
  return
}

// CHECK:      dfir.program "MNILU"
// CHECK:        scf.for %[[TILE:[^ ]+]] =
// CHECK:          scf.for %[[PIECE:[^ ]+]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[ROW:[^ ]+]] = arith.remsi %[[PIECE]], %{{.*}} : index
// CHECK:            %[[DOWN:[^ ]+]] = arith.muli %[[ROW]], %[[LD:[^ ]+]] : index
// CHECK:            %[[FROM:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"DDR"> -> memref<8xf16>
// CHECK:            %[[TO:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<8xf16>
// CHECK-NEXT:       dfir.dma %[[FROM]] to %[[TO]] : memref<8xf16>, memref<8xf16>
// CHECK-NEXT:     }
// CHECK-NOT:  strided<[?
