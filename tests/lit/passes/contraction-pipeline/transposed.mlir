// Operands stored k-major reach the matrix unit: A stored 16 x 8 (k x m) and B stored
// 16 x 16 (n x k), both read through a linalg.transpose, for an 8 x 16 by 16 x 16
// product on spyre (one output tile, one k tile, chunks and blocks of 16). The DMA
// transposes A as it copies it: one copy per stored row (8 elements), read whole from
// device memory and written element by element into the chunk layout the unit takes
// (the destination stride of a row is the chunk's width). Spyre's unit takes B as it is
// stored (transposed_rhs): one copy of its rows into blocks of n x chunk, each row a
// run, fed as a 16 x 16 block that the product reads through the map (n, k).

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK:      #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK:      %[[A:.+]] = ktdp.construct_memory_view %a, {{.*}} : memref<16x8xf16, "DDR">
// CHECK:      %[[B:.+]] = ktdp.construct_memory_view %b, {{.*}} : memref<16x16xf16, "DDR">
// CHECK-NOT:  linalg.matmul
// CHECK:      ktdf.select_memref %{{.+}} : memref<1x8x16xf16, "L1">
// CHECK:      ktdf.select_memref %{{.+}} : memref<1x16x16xf16, "L1">
// CHECK:        scf.for
// CHECK-NEXT:     scf.for
// CHECK:            memref.reinterpret_cast %[[A]] to offset: [%{{.+}}], sizes: [8], strides: [1]
// CHECK-NEXT:       memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [8], strides: [16]
// CHECK-NEXT:       ktdf.data_transfer {{.*}} size [8] {{.*}} size [8]
// CHECK:      } {applicable_units = ["MNILU"]}
// CHECK-NOT:  scf.for
// CHECK:        memref.reinterpret_cast %[[B]] to offset: [%{{.+}}], sizes: [1, 16, 1, 16], strides: [256, 16, 16, 1]
// CHECK-NEXT:   memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [1, 16, 1, 16], strides: [256, 16, 256, 1]
// CHECK-NEXT:   ktdf.data_transfer {{.*}} size [1, 16, 1, 16] {{.*}} size [1, 16, 1, 16]
// CHECK:      } {applicable_units = ["MNILU"]}
// CHECK:        ktdf.data_transfer from %{{.+}} size [1, 8, 16] to %{{.+}} size [128]
// CHECK:        ktdf.data_transfer from %{{.+}}[%{{.+}} + %{{.+}}, 0, 0] size [1, 16, 16] to %{{.+}} size [256]
// CHECK:      } {applicable_units = ["L1LU"]}
// CHECK:        linalg.generic {indexing_maps = [#{{.+}}, #[[RHS]], #{{.+}}], {{.*}} ins({{.*}} : memref<8x16xf16, "PT_ACC">, memref<16x16xf16, "PT_ACC">)
// CHECK:      } {applicable_units = ["PT"]}

#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed(%a: index, %b: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %a, sizes: [16, 8], strides: [8, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %cv = ktdp.construct_memory_view %c, sizes: [8, 16], strides: [16, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #a, access_tile_order = #id} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %x = ktdp.load %at : !ktdp.access_tile<16x8xindex> -> tensor<16x8xf16>
  %y = ktdp.load %bt : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %xe = tensor.empty() : tensor<8x16xf16>
  %xt = linalg.transpose ins(%x : tensor<16x8xf16>) outs(%xe : tensor<8x16xf16>) permutation = [1, 0]
  %ye = tensor.empty() : tensor<16x16xf16>
  %yt = linalg.transpose ins(%y : tensor<16x16xf16>) outs(%ye : tensor<16x16xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x16xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
  %p = linalg.matmul ins(%xt, %yt : tensor<8x16xf16>, tensor<16x16xf16>) outs(%init : tensor<8x16xf16>) -> tensor<8x16xf16>
  ktdp.store %p, %ct : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  return
}
