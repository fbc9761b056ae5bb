// examples/matmul.mlir on toy, whose 2 x 8 matrix unit takes output tiles of 8 x 16
// (contraction-tiling): the product becomes a loop over the 16 output tiles of the
// tile's 32 x 64 result, each a pipeline on MNILU, L1LU, PT and L1SU. Per output tile: a
// pipeline on PT zeroing its two 8 x 8 blocks of accumulators in PT_ACC; the k tile (one
// of 128) as a pipeline: MNILU copies the 8 x 128 rows of A as 32 chunks of 8 x 4, then,
// in a stage of its own, the 128 x 16 columns of B as 2 blocks of 128 x 8, each into
// the one of its two buffers (allocated at the function's start) that the pipeline's
// buffer phase selects, so that consecutive k tiles use them in turn (through
// reinterpret casts that lay them out chunk by chunk); L1LU sends
// each chunk of A and block of B through its FIFO; PT reads each pair and accumulates
// their product into its block; then a pipeline sends each 8-element row of
// accumulators to L1SU, which stores it at its place in the f32 result buffer; then,
// since the kernel only stores the product, the output tile's part of that buffer is
// loaded, rounded to f16 into a buffer of one output tile, and MNISU copies that buffer
// to the tile's place in c (rows of 16 whole), so the next output tile's products
// overlap this one's store. No store of the whole product is left.

// RUN: ktc-opt %root/examples/matmul.mlir --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK:      func.func @local_schedule_0(
// CHECK-NEXT:   %[[RESULT:.+]] = memref.alloc() : memref<32x64xf32, "L1">
// CHECK-NEXT:   %[[ACC:.+]] = memref.alloc() : memref<2x8x8xf32, "PT_ACC">
// CHECK-NEXT:   %[[ROUNDED:.+]] = memref.alloc() : memref<8x16xf16, "L1">
// CHECK-NEXT:   %[[A0:.+]] = memref.alloc() : memref<32x8x4xf16, "L1">
// CHECK-NEXT:   %[[A1:.+]] = memref.alloc() : memref<32x8x4xf16, "L1">
// CHECK-NEXT:   %[[B0:.+]] = memref.alloc() : memref<2x128x8xf16, "L1">
// CHECK-NEXT:   %[[B1:.+]] = memref.alloc() : memref<2x128x8xf16, "L1">
// CHECK:        %[[A:.+]] = ktdp.construct_memory_view %a, {{.*}} : memref<64x128xf16, "DDR">
// CHECK:        %[[B:.+]] = ktdp.construct_memory_view %b, {{.*}} : memref<128x64xf16, "DDR">
// CHECK:        %[[C:.+]] = ktdp.construct_memory_view %c, {{.*}} : memref<64x64xf16, "DDR">
// CHECK-NOT:    linalg.matmul
// CHECK:        scf.for %[[TILE:.+]] = %{{.+}} to %[[SIXTEEN:.+]] step
// CHECK-NEXT:     ktdf.pipeline {
// CHECK:            ktdf.stage
// CHECK-NEXT:         ktdf.pipeline {
// CHECK:                linalg.generic {{.*}} outs(%{{.+}} : memref<8x8xf32, strided<[8, 1], offset: ?>, "PT_ACC">)
// CHECK:              } {applicable_units = ["PT"]}
// CHECK:              %[[PHASE:.+]] = ktdf.buffer_phase(%[[TILE]], %{{.+}}) {num_phases = 2 : i64}
// CHECK-NEXT:         ktdf.select_memref %[[PHASE]][%[[A0]], %[[A1]]]
// CHECK-NEXT:         ktdf.select_memref %[[PHASE]][%[[B0]], %[[B1]]]
// CHECK:              ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "PT", 32xf16>, !ktdf.fifo.slot<"L1LU" -> "PT", 32xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:              memref.reinterpret_cast %[[A]] to offset: [%{{.+}}], sizes: [8, 32, 4], strides: [128, 4, 1]
// CHECK:              ktdf.data_transfer {{.*}} size [8, 32, 4] {{.*}} size [8, 32, 4]
// CHECK-NEXT:       } {applicable_units = ["MNILU"]}
// CHECK:              memref.reinterpret_cast %[[B]] to offset: [%{{.+}}], sizes: [128, 2, 8], strides: [64, 8, 1]
// CHECK:              ktdf.data_transfer {{.*}} size [128, 2, 8] {{.*}} size [128, 2, 8]
// CHECK-NEXT:       } {applicable_units = ["MNILU"]}
// CHECK:              ktdf.data_transfer from %{{.+}} size [1, 8, 4] to %{{.+}} size [32]
// CHECK:              ktdf.data_transfer from %{{.+}} size [1, 4, 8] to %{{.+}} size [32]
// CHECK:            } {applicable_units = ["L1LU"]}
// CHECK:              ktdf.read_from_fifo {{.*}} -> memref<8x4xf16, "PT_ACC">
// CHECK:              ktdf.read_from_fifo {{.*}} -> memref<4x8xf16, "PT_ACC">
// CHECK:              memref.reinterpret_cast %[[ACC]]
// CHECK:              linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins({{.*}} : memref<8x4xf16, "PT_ACC">, memref<4x8xf16, "PT_ACC">) outs({{.*}} : memref<8x8xf32, strided<[8, 1], offset: ?>, "PT_ACC">)
// CHECK:            } {applicable_units = ["PT"]}
// CHECK:              ktdf.private -> (!ktdf.fifo.slot<"PT" -> "L1SU", 8xf32>, !ktdf.token, !ktdf.token)
// CHECK:              ktdf.write_to_fifo {{.*}} : memref<8xf32, strided<[1], offset: ?>, "PT_ACC">, <"PT" -> "L1SU", 8xf32>
// CHECK:            } {applicable_units = ["PT"]}
// CHECK:              ktdf.data_transfer from %{{.+}} size [8] to %[[RESULT]][(%[[TILE]] floordiv 4) * 8 + %{{.+}}, (%[[TILE]] mod 4) * 16 + %{{.+}} * 8] size [1, 8]
// CHECK:            } {applicable_units = ["L1SU"]}
// CHECK:          } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}
// CHECK-NEXT:     }
// CHECK-NEXT:     %[[PART:.+]] = ktdp.construct_access_tile %[[RESULT]][(%[[TILE]] floordiv 4) * 8, (%[[TILE]] mod 4) * 16]
// CHECK-NEXT:     %[[LOADED:.+]] = ktdp.load %[[PART]] : <8x16xindex> -> tensor<8x16xf32>
// CHECK-NEXT:     %[[PRODUCT:.+]] = arith.truncf %[[LOADED]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK-NEXT:     %[[INTO:.+]] = ktdp.construct_access_tile %[[ROUNDED]][0, 0]
// CHECK-NEXT:     ktdp.store %[[PRODUCT]], %[[INTO]] : tensor<8x16xf16>, <8x16xindex>
// CHECK-NEXT:     ktdf.pipeline {
// CHECK:            ktdf.stage
// CHECK:              %[[FROM:.+]] = memref.reinterpret_cast %[[ROUNDED]] to offset: [0], sizes: [8, 16], strides: [16, 1]
// CHECK-NEXT:         %[[TO:.+]] = memref.reinterpret_cast %[[C]] to offset: [%{{.+}}], sizes: [8, 16], strides: [64, 1]
// CHECK-NEXT:         ktdf.data_transfer from %[[FROM]][0, 0] size [8, 16] to %[[TO]][0, 0] size [8, 16]
// CHECK-NEXT:       } {applicable_units = ["MNISU"]}
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   return
