// A product the kernel reads otherwise than by one store of it (here stored twice) keeps
// its result phase: no output tile is rounded and copied out inside the loop over output
// tiles; after that loop the whole f32 result buffer is loaded and rounded once, and the
// kernel's two stores stay as written.

// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK-LABEL: func.func @twice
// CHECK-NEXT:    %[[RESULT:.+]] = memref.alloc() : memref<8x16xf32, "L1">
// CHECK-NEXT:    memref.alloc() : memref<2x8x8xf32, "PT_ACC">
// CHECK-NOT:     memref.alloc() : memref<8x16xf16, "L1">
// CHECK:         ktdf.pipeline {
// CHECK-NOT:       ktdp.store
// CHECK:         } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}
// CHECK:         %[[WHOLE:.+]] = ktdp.construct_access_tile %[[RESULT]][0, 0]
// CHECK-NEXT:    %[[LOADED:.+]] = ktdp.load %[[WHOLE]] : <8x16xindex> -> tensor<8x16xf32>
// CHECK-NEXT:    %[[PRODUCT:.+]] = arith.truncf %[[LOADED]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK:         ktdp.store %[[PRODUCT]]
// CHECK:         ktdp.store %[[PRODUCT]]

#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @twice(%a: index, %b: index, %c: index, %d: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %av = ktdp.construct_memory_view %a, sizes: [8, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [32, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %dv = ktdp.construct_memory_view %d, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = #id} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
    %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %dt = ktdp.construct_access_tile %dv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %x = ktdp.load %at : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    %y = ktdp.load %bt : !ktdp.access_tile<32x16xindex> -> tensor<32x16xf16>
    %zero = arith.constant 0.0 : f16
    %empty = tensor.empty() : tensor<8x16xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x16xf16>) -> tensor<8x16xf16>
    %p = linalg.matmul ins(%x, %y : tensor<8x32xf16>, tensor<32x16xf16>) outs(%init : tensor<8x16xf16>) -> tensor<8x16xf16>
    ktdp.store %p, %ct : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    ktdp.store %p, %dt : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    return
  }
}
