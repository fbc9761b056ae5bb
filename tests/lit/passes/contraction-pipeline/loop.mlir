// A kernel that accumulates the contraction over its own loop (as the corpus matmul
// does, its bounds arguments): the loop becomes part of the schedule, from 0 in steps
// of 1 to its trip count (computed before the pipeline), its original index rebuilt
// inside; the tile offsets it feeds are cloned into the DMA stage. The accumulators
// are zeroed once before it and drained once after: the result is written once, after
// the last iteration. The loop and its loads are gone.

// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#at = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#bt = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @accumulate(%a: index, %b: index, %c: index, %K: index, %step: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %av = ktdp.construct_memory_view %a, sizes: [8, 64], strides: [64, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [64, 8], strides: [8, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<64x8xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [8, 8], strides: [8, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %zeros = arith.constant dense<0.0> : tensor<8x8xf16>
    // CHECK:      %[[SPAN:.+]] = arith.subi %K, %c0 : index
    // CHECK-NEXT: %[[TRIPS:.+]] = arith.ceildivsi %[[SPAN]], %step : index
    // CHECK:      ktdf.pipeline {
    // CHECK:        applicable_units = ["PT"]
    // CHECK:        scf.for %[[I:.+]] = %{{.+}} to %[[TRIPS]] step
    // CHECK-NEXT:     %[[SCALED:.+]] = arith.muli %[[I]], %step : index
    // CHECK-NEXT:     %[[K:.+]] = arith.addi %c0, %[[SCALED]] : index
    // CHECK:          ktdf.stage
    // CHECK:            %[[OFFSET:.+]] = arith.addi %[[K]], %c0 : index
    // CHECK:            affine.apply #{{.+}}(%c0, %[[OFFSET]], %{{.+}}, %{{.+}})
    // CHECK:          } {applicable_units = ["MNILU"]}
    // CHECK:        ktdf.write_to_fifo
    // CHECK:      } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU"]}
    // CHECK-NOT:  scf.for
    // CHECK-NOT:  ktdp.load %{{.+}} : <8x16xindex>
    // CHECK:      arith.truncf
    %sum = scf.for %k = %c0 to %K step %step iter_args(%acc = %zeros) -> (tensor<8x8xf16>) {
      %kk = arith.addi %k, %c0 : index
      %at = ktdp.construct_access_tile %av[%c0, %kk] {access_tile_set = #at, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<8x16xindex>
      %bt = ktdp.construct_access_tile %bv[%kk, %c0] {access_tile_set = #bt, access_tile_order = #id} : memref<64x8xf16> -> !ktdp.access_tile<16x8xindex>
      %x = ktdp.load %at : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
      %y = ktdp.load %bt : !ktdp.access_tile<16x8xindex> -> tensor<16x8xf16>
      %e = tensor.empty() : tensor<8x8xf16>
      %p = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x8xf16>) outs(%e : tensor<8x8xf16>) -> tensor<8x8xf16>
      %next = arith.addf %acc, %p : tensor<8x8xf16>
      scf.yield %next : tensor<8x8xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
    ktdp.store %sum, %ct : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
    return
  }
}
