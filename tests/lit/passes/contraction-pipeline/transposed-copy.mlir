// A right operand stored n x k, on a matrix unit that takes it only k x n (toy: no
// transposed_rhs), is transposed by the DMA as it copies it: B, 8 x 8 stored n x k
// through a linalg.transpose, times a row-major 2 x 8 A. One copy per stored row of B
// (8 elements read whole from device memory, written with the block's stride, 8, into
// the k x block layout), and the unit reads 4 x 8 chunks of it, k x n, through the
// plain map (k, n).

// RUN: ktc-opt %s --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK:      #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK:      %[[B:.+]] = ktdp.construct_memory_view %b, {{.*}} : memref<8x8xf16, "DDR">
// CHECK:      ktdf.select_memref %{{.+}} : memref<1x8x8xf16, "L1">
// CHECK:        scf.for
// CHECK-NEXT:     scf.for
// CHECK:            memref.reinterpret_cast %[[B]] to offset: [%{{.+}}], sizes: [8], strides: [1]
// CHECK-NEXT:       memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [8], strides: [8]
// CHECK-NEXT:       ktdf.data_transfer {{.*}} size [8] {{.*}} size [8]
// CHECK:      } {applicable_units = ["MNILU"]}
// CHECK:        ktdf.data_transfer from %{{.+}} size [1, 4, 8] to %{{.+}} size [32]
// CHECK:      } {applicable_units = ["L1LU"]}
// CHECK:        linalg.generic {indexing_maps = [#{{.+}}, #[[RHS]], #{{.+}}], {{.*}} ins({{.*}} : memref<2x4xf16, "PT_ACC">, memref<4x8xf16, "PT_ACC">)
// CHECK:      } {applicable_units = ["PT"]}

#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_rhs(%a: index, %b: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %a, sizes: [2, 8], strides: [8, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [8, 8], strides: [8, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %cv = ktdp.construct_memory_view %c, sizes: [2, 8], strides: [8, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #a, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
  %x = ktdp.load %at : !ktdp.access_tile<2x8xindex> -> tensor<2x8xf16>
  %y = ktdp.load %bt : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
  %ye = tensor.empty() : tensor<8x8xf16>
  %yt = linalg.transpose ins(%y : tensor<8x8xf16>) outs(%ye : tensor<8x8xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<2x8xf16>) -> tensor<2x8xf16>
  %p = linalg.matmul ins(%x, %yt : tensor<2x8xf16>, tensor<8x8xf16>) outs(%init : tensor<2x8xf16>) -> tensor<2x8xf16>
  ktdp.store %p, %ct : tensor<2x8xf16>, !ktdp.access_tile<2x8xindex>
  return
}
