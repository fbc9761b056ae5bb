// On a chip without a matrix unit (the third test chip: its VPU is a SIMD engine) the
// product stays a generic, written to multiply and reduce along k innermost: B, stored
// k x n, is loaded through a view of the same memory with its dimensions swapped
// (sizes [64, 128], strides [1, 64]) as a 64 x 128 tile read (n, k). Such a generic is
// what the passes after this one schedule as a reduction.

// RUN: ktc-opt %root/examples/matmul.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK-DAG:  #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:  #[[BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:  #[[C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK:      %[[VIEW:.+]] = ktdp.construct_memory_view %b, sizes: [64, 128], strides: [1, 64] {{.*}} : memref<64x128xf16>
// CHECK:      %[[TILE:.+]] = ktdp.construct_access_tile %[[VIEW]][%{{.+}}, %{{.+}}] {{.*}} -> !ktdp.access_tile<64x128xindex>
// CHECK:      %[[BT_LOAD:.+]] = ktdp.load %[[TILE]] : <64x128xindex> -> tensor<64x128xf16>
// CHECK:      linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %[[BT_LOAD]] : tensor<32x128xf16>, tensor<64x128xf16>)
// CHECK-NOT:  ktdf.contraction_tiles
// CHECK-NOT:  ktdf.pipeline
