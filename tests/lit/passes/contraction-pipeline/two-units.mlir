// A 32 x 128 output tile on spyre, two blocks of 64 columns of accumulators, shared out
// over the core's two matrix units (one per sub-core, each with its own load and store
// units and FIFOs): zeroing, multiplying and draining each run in a ktdf.parallel over
// the blocks, one pipeline per block with FIFOs private to it, each unit's accumulators
// holding only its share of the blocks (one 32 x 64 block each, at the start of the
// unit's own memory: the offset of block j is 0); the DMA copies each k
// tile of A and B once into the shared scratchpad for both. On toy (one sub-core) the
// same product keeps the one-unit form: no ktdf.parallel, the stages looping over the
// blocks.

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s
// RUN: ktc-opt %s --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s --check-prefix=TOY

// CHECK:      func.func @local_schedule_0(
// CHECK-NEXT:   memref.alloc() : memref<32x128xf32, "L1">
// CHECK-NEXT:   %[[ACC:.+]] = memref.alloc() : memref<1x32x64xf32, "PT_ACC">
// CHECK:        ktdf.parallel (%[[J:.+]], %{{.+}}) = (%[[ZERO:.+]]) to (%[[TWO:.+]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:     ktdf.pipeline {
// CHECK:            affine.apply #{{.+}}(%[[J]])
// CHECK:            linalg.generic {{.*}} outs(%{{.+}} : memref<32x64xf32, strided<[64, 1], offset: ?>, "PT_ACC">)
// CHECK:          } {applicable_units = ["PT"]}
// CHECK:        } {applicable_units = ["PT"]}
// CHECK:        ktdf.select_memref %{{.+}} : memref<2x32x32xf16, "L1">
// CHECK:        ktdf.select_memref %{{.+}} : memref<2x64x64xf16, "L1">
// CHECK:        ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:          ktdf.data_transfer {{.*}} size [32, 2, 32] {{.*}} size [32, 2, 32]
// CHECK:        } {applicable_units = ["MNILU"]}
// CHECK:          ktdf.data_transfer {{.*}} size [64, 2, 64] {{.*}} size [64, 2, 64]
// CHECK:        } {applicable_units = ["MNILU"]}
// CHECK:        ktdf.parallel (%[[BLOCK:.+]], %{{.+}}) = (%[[ZERO]]) to (%[[TWO]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:     ktdf.pipeline {
// CHECK-NEXT:       ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "PT", 1024xf16>, !ktdf.fifo.slot<"L1LU" -> "PT", 2048xf16>, !ktdf.token, !ktdf.token)
// CHECK:            ktdf.data_transfer from %{{.+}}[%[[BLOCK]], %{{.+}} * 32, 0] size [1, 32, 64]
// CHECK:          } {applicable_units = ["L1LU"]}
// CHECK:            linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:          } {applicable_units = ["PT"]}
// CHECK:        } {applicable_units = ["L1LU", "PT"]}
// CHECK:        ktdf.parallel (%[[DRAINED:.+]], %{{.+}}) = (%[[ZERO]]) to (%[[TWO]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:     ktdf.pipeline {
// CHECK-NEXT:       ktdf.private -> (!ktdf.fifo.slot<"PT" -> "L1SU", 64xf32>, !ktdf.token, !ktdf.token)
// CHECK:            ktdf.write_to_fifo
// CHECK:          } {applicable_units = ["PT"]}
// CHECK:            ktdf.data_transfer from %{{.+}} size [64] to %{{.+}}[%{{.+}} * 32 + %{{.+}}, %[[DRAINED]] * 64] size [1, 64]
// CHECK:          } {applicable_units = ["L1SU"]}
// CHECK:        } {applicable_units = ["PT", "L1SU"]}
// CHECK:      } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}

// TOY-NOT:    ktdf.parallel
// TOY:        } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}
// TOY-NOT:    ktdf.parallel

module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index
    %a_view = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32x128xf16>
    %block_m = arith.constant 32 : index
    %block_n = arith.constant 128 : index
    %block_k = arith.constant 64 : index
    %depth = arith.constant 64 : index
    %row = arith.muli %tile_m, %block_m : index
    %col = arith.muli %tile_n, %block_n : index
    %zeros = arith.constant dense<0.0> : tensor<32x128xf16>
    %product = scf.for %kk = %c0 to %depth step %block_k iter_args(%acc = %zeros) -> (tensor<32x128xf16>) {
      %x_tile = ktdp.construct_access_tile %a_view[%row, %kk] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
      %y_tile = ktdp.construct_access_tile %b_view[%kk, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<64x128xf16> -> !ktdp.access_tile<64x128xindex>
      %y = ktdp.load %y_tile : !ktdp.access_tile<64x128xindex> -> tensor<64x128xf16>
      %empty = tensor.empty() : tensor<32x128xf16>
      %dot = linalg.matmul ins(%x, %y : tensor<32x64xf16>, tensor<64x128xf16>) outs(%empty : tensor<32x128xf16>) -> tensor<32x128xf16>
      %next = arith.addf %acc, %dot : tensor<32x128xf16>
      scf.yield %next : tensor<32x128xf16>
    }
      %product_tile = ktdp.construct_access_tile %c_view[%row, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<32x128xf16> -> !ktdp.access_tile<32x128xindex>
      ktdp.store %product, %product_tile : tensor<32x128xf16>, !ktdp.access_tile<32x128xindex>
    return
  }
}

