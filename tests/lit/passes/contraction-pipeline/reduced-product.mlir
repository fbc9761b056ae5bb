// A product that a reduction reads (attention's scores, whose row maximum a softmax
// takes) is stored whole into a scratchpad buffer of its shape and loaded back, so
// that the reduction tiles it over its rows and not over the product's k: here Q K^T
// (K read through a transpose) and the row maximum of the scores. On the third chip,
// which has no matrix unit, the SIMD engine multiplies it and the product itself is
// stored; a product that only a store and elementwise compute read (the scaled copy
// below) stays in place, fused with it. On spyre the matrix unit multiplies it (the
// DMA transposes K): its result buffer is loaded and rounded to f16 once, and that
// rounded product is what is stored and loaded back for the reduction.

// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s
// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s --check-prefix=SPYRE

// SPYRE-LABEL: module @local_schedule_0
// SPYRE:       %[[BUFFER:.+]] = memref.alloc() : memref<8x8xf16, "L1">
// SPYRE-NEXT:  %[[RESULT:.+]] = memref.alloc() : memref<8x8xf32, "L1">
// SPYRE:       } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}
// SPYRE:       %[[WHOLE:.+]] = ktdp.construct_access_tile %[[RESULT]][0, 0]
// SPYRE-NEXT:  %[[LOADED:.+]] = ktdp.load %[[WHOLE]] : <8x8xindex> -> tensor<8x8xf32>
// SPYRE-NEXT:  %[[ROUNDED:.+]] = arith.truncf %[[LOADED]]
// SPYRE-NEXT:  %[[INTO:.+]] = ktdp.construct_access_tile %[[BUFFER]][0, 0]
// SPYRE-NEXT:  ktdp.store %[[ROUNDED]], %[[INTO]] : tensor<8x8xf16>
// SPYRE-NEXT:  %[[BACK:.+]] = ktdp.construct_access_tile %[[BUFFER]][0, 0]
// SPYRE-NEXT:  %[[SCORES:.+]] = ktdp.load %[[BACK]] : <8x8xindex> -> tensor<8x8xf16>
// SPYRE:       linalg.reduce { arith.maximumf } ins(%[[SCORES]] : tensor<8x8xf16>)

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#scores = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: module @local_schedule_0
// CHECK:       %[[BUFFER:.+]] = memref.alloc() : memref<8x8xf16, "SPM">
// CHECK:       %[[PRODUCT:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NEXT:    ^bb0
// CHECK:       } -> tensor<8x8xf16>
// CHECK-NEXT:  %[[INTO:.+]] = ktdp.construct_access_tile %[[BUFFER]][0, 0]
// CHECK-NEXT:  ktdp.store %[[PRODUCT]], %[[INTO]] : tensor<8x8xf16>
// CHECK-NEXT:  %[[BACK:.+]] = ktdp.construct_access_tile %[[BUFFER]][0, 0]
// CHECK-NEXT:  %[[SCORES:.+]] = ktdp.load %[[BACK]] : <8x8xindex> -> tensor<8x8xf16>
// CHECK:       linalg.reduce { arith.maximumf } ins(%[[SCORES]] : tensor<8x8xf16>)
func.func @scores_max(%q: index, %k: index, %m: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %qv = ktdp.construct_memory_view %q, sizes: [8, 16], strides: [16, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %kv = ktdp.construct_memory_view %k, sizes: [8, 16], strides: [16, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %mv = ktdp.construct_memory_view %m, sizes: [8], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %qt = ktdp.construct_access_tile %qv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %kt = ktdp.construct_access_tile %kv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %mt = ktdp.construct_access_tile %mv[%c0] {access_tile_set = #row, access_tile_order = #id1} : memref<8xf16> -> !ktdp.access_tile<8xindex>
  %x = ktdp.load %qt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %y = ktdp.load %kt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %te = tensor.empty() : tensor<16x8xf16>
  %yt = linalg.transpose ins(%y : tensor<8x16xf16>) outs(%te : tensor<16x8xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x8xf16>
  %s = linalg.matmul ins(%x, %yt : tensor<8x16xf16>, tensor<16x8xf16>) outs(%e : tensor<8x8xf16>) -> tensor<8x8xf16>
  %low = arith.constant 0xFC00 : f16
  %me = tensor.empty() : tensor<8xf16>
  %init = linalg.fill ins(%low : f16) outs(%me : tensor<8xf16>) -> tensor<8xf16>
  %max = linalg.reduce { arith.maximumf } ins(%s : tensor<8x8xf16>) outs(%init : tensor<8xf16>) dimensions = [1]
  ktdp.store %max, %mt : tensor<8xf16>, !ktdp.access_tile<8xindex>
  return
}

// CHECK-LABEL: module @local_schedule_1
// CHECK-NOT:   memref.alloc
// CHECK:       %[[PRODUCT:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:       arith.mulf %[[PRODUCT]]
// CHECK-NOT:   ktdp.load
func.func @scaled(%q: index, %k: index, %o: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %qv = ktdp.construct_memory_view %q, sizes: [8, 16], strides: [16, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %kv = ktdp.construct_memory_view %k, sizes: [8, 16], strides: [16, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %ov = ktdp.construct_memory_view %o, sizes: [8, 8], strides: [8, 1] {coordinate_set = #scores, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %qt = ktdp.construct_access_tile %qv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %kt = ktdp.construct_access_tile %kv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #scores, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
  %x = ktdp.load %qt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %y = ktdp.load %kt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %te = tensor.empty() : tensor<16x8xf16>
  %yt = linalg.transpose ins(%y : tensor<8x16xf16>) outs(%te : tensor<16x8xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x8xf16>
  %s = linalg.matmul ins(%x, %yt : tensor<8x16xf16>, tensor<16x8xf16>) outs(%e : tensor<8x8xf16>) -> tensor<8x8xf16>
  %half = arith.constant dense<0.5> : tensor<8x8xf16>
  %h = arith.mulf %s, %half : tensor<8x8xf16>
  ktdp.store %h, %ot : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
  return
}
