// An operand computed on chip reaches the matrix unit without a device-memory round
// trip: A, the squares of a loaded 32 x 64 tile (any elementwise compute), multiplied
// by a loaded 64 x 64 B on spyre. A is stored row-major into a scratchpad buffer of
// its shape before the product (the SIMD engine computes and stores it); the tiles
// take its whole rows as one chunk, so the load unit feeds the output tile's 32 rows
// of it straight from that buffer as one contiguous block (once per block of 32
// columns of B, which is all the FIFO holds beside it; the two blocks shared out over
// the core's two matrix units), and only B is copied in by the DMA.

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK-LABEL: module @local_schedule_0
// CHECK:       %[[STAGED:.+]] = memref.alloc() : memref<32x64xf16, "L1">
// CHECK:       %[[SQUARES:.+]] = arith.mulf
// CHECK-NEXT:  %[[INTO:.+]] = ktdp.construct_access_tile %[[STAGED]][0, 0]
// CHECK-NEXT:  ktdp.store %[[SQUARES]], %[[INTO]] : tensor<32x64xf16>
// CHECK:       ktdf.select_memref %{{.+}}[%{{.+}}, %{{.+}}] : memref<2x64x32xf16, "L1">
// CHECK:         ktdf.data_transfer {{.*}} size [64, 2, 32] {{.*}} size [64, 2, 32]
// CHECK-NOT:     ktdf.data_transfer
// CHECK:       } {applicable_units = ["MNILU"]}
// CHECK:       ktdf.parallel {{.*}} distribute(num_instances = 2)
// CHECK:       ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "PT", 2048xf16>, !ktdf.fifo.slot<"L1LU" -> "PT", 2048xf16>
// CHECK:         ktdf.data_transfer from %[[STAGED]][%{{.+}} * 32, %{{.+}} * 64 + %{{.+}} * 64] size [32, 64] to %{{.+}} size [2048]
// CHECK:       } {applicable_units = ["L1LU"]}
// CHECK:         linalg.generic {{.*}} ins({{.*}} : memref<32x64xf16, "PT_ACC">, memref<64x32xf16, "PT_ACC">)
// CHECK:       } {applicable_units = ["PT"]}

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @squares_times_w(%x: index, %w: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %wv = ktdp.construct_memory_view %w, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %cv = ktdp.construct_memory_view %c, sizes: [32, 64], strides: [64, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %wt = ktdp.construct_access_tile %wv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %b = ktdp.load %wt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %squares = arith.mulf %a, %a : tensor<32x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<32x64xf16>) -> tensor<32x64xf16>
  %p = linalg.matmul ins(%squares, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%init : tensor<32x64xf16>) -> tensor<32x64xf16>
  ktdp.store %p, %ct : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
