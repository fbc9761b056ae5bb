// A 32 x 64 output tile on spyre is one block of 64 columns of accumulators, fewer
// blocks than the core's two matrix units: its rows are split between them, two pieces
// of 16 rows (piece j the rows (j mod 2) * 16 of block j floordiv 2), one per
// sub-core's unit in a ktdf.parallel over the pieces. Each unit's accumulators hold
// its 16 x 64 piece; its load unit feeds it its 16 rows of each chunk of A (from row
// (j mod 2) * 16 of the copied chunk) and the whole chunk of B's block; its store unit
// drains the piece's 16 rows to their place in the result buffer. The DMA copies each
// k tile of A and B once.

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK:      func.func @local_schedule_0(
// CHECK-NEXT:   memref.alloc() : memref<32x64xf32, "L1">
// CHECK-NEXT:   memref.alloc() : memref<1x16x64xf32, "PT_ACC">
// CHECK:        ktdf.parallel (%[[J:.+]], %{{.+}}) = (%[[ZERO:.+]]) to (%[[TWO:.+]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK:            linalg.generic {{.*}} outs(%{{.+}} : memref<16x64xf32, strided<[64, 1], offset: ?>, "PT_ACC">)
// CHECK:        } {applicable_units = ["PT"]}
// CHECK:          ktdf.data_transfer {{.*}} size [32, 2, 32] {{.*}} size [32, 2, 32]
// CHECK:        } {applicable_units = ["MNILU"]}
// CHECK:          ktdf.data_transfer {{.*}} size [64, 1, 64] {{.*}} size [64, 1, 64]
// CHECK:        } {applicable_units = ["MNILU"]}
// CHECK:        ktdf.parallel (%[[PIECE:.+]], %{{.+}}) = (%[[ZERO]]) to (%[[TWO]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:     ktdf.pipeline {
// CHECK-NEXT:       ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "PT", 512xf16>, !ktdf.fifo.slot<"L1LU" -> "PT", 2048xf16>, !ktdf.token, !ktdf.token)
// CHECK:            ktdf.data_transfer from %{{.+}}[%{{.+}}, (%[[PIECE]] mod 2) * 16, 0] size [1, 16, 32]
// CHECK:            ktdf.data_transfer from %{{.+}}[%[[PIECE]] floordiv 2, %{{.+}} * 32, 0] size [1, 32, 64]
// CHECK:          } {applicable_units = ["L1LU"]}
// CHECK:            linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : memref<16x32xf16, "PT_ACC">, memref<32x64xf16, "PT_ACC">) outs(%{{.+}} : memref<16x64xf32, strided<[64, 1], offset: ?>, "PT_ACC">)
// CHECK:          } {applicable_units = ["PT"]}
// CHECK:        } {applicable_units = ["L1LU", "PT"]}
// CHECK:        ktdf.parallel (%[[DRAINED:.+]], %{{.+}}) = (%[[ZERO]]) to (%[[TWO]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK:            ktdf.data_transfer from %{{.+}} size [64] to %{{.+}}[%{{.+}} * 32 + (%[[DRAINED]] mod 2) * 16 + %{{.+}}, (%[[DRAINED]] floordiv 2) * 64] size [1, 64]
// CHECK:          } {applicable_units = ["L1SU"]}
// CHECK:      } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}

module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index
    %a_view = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %block_m = arith.constant 32 : index
    %block_n = arith.constant 64 : index
    %block_k = arith.constant 64 : index
    %depth = arith.constant 64 : index
    %row = arith.muli %tile_m, %block_m : index
    %col = arith.muli %tile_n, %block_n : index
    %zeros = arith.constant dense<0.0> : tensor<32x64xf16>
    %product = scf.for %kk = %c0 to %depth step %block_k iter_args(%acc = %zeros) -> (tensor<32x64xf16>) {
      %x_tile = ktdp.construct_access_tile %a_view[%row, %kk] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
      %y_tile = ktdp.construct_access_tile %b_view[%kk, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      %y = ktdp.load %y_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %empty = tensor.empty() : tensor<32x64xf16>
      %dot = linalg.matmul ins(%x, %y : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
      %next = arith.addf %acc, %dot : tensor<32x64xf16>
      scf.yield %next : tensor<32x64xf16>
    }
      %product_tile = ktdp.construct_access_tile %c_view[%row, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      ktdp.store %product, %product_tile : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    return
  }
}

