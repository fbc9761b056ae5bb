// A reshape no strides describe is a copy through the scratchpad: the collapse of a
// loaded 2x4x128 query tile (two tokens 4096 elements apart, four heads 128 apart)
// becomes a one-stage pipeline on the DMA engine into the scratchpad copying the
// tile, in its shape from its start in the view, into a buffer of 8x128, and a load
// of that buffer; the expand of a result stored through such a tile becomes a store
// into a buffer of 8x128 and a pipeline on the DMA engine out of the scratchpad
// copying it into the tile. The views are marked masked (the copies move only what
// lies in their boxes, as the load and store would).

// RUN: ktc-opt %s --arch toy -p stage-reshaped-tiles | filecheck %s

#qs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#qt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  module @local_schedule_0 {
    // CHECK-LABEL: func.func @local_schedule_0
    // CHECK-DAG:  %[[OUT:.+]] = memref.alloc() : memref<8x128xf16, "L1">
    // CHECK-DAG:  %[[IN:.+]] = memref.alloc() : memref<8x128xf16, "L1">
    func.func @local_schedule_0(%q: index, %o: index, %t: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      // CHECK:      %[[QV:.+]] = ktdp.construct_memory_view {{.*}} ktdf.masked{{.*}} : memref<8x32x128xf16, "DDR">
      // CHECK:      %[[OV:.+]] = ktdp.construct_memory_view {{.*}} ktdf.masked{{.*}} : memref<8x32x128xf16, "DDR">
      %qv = ktdp.construct_memory_view %q, sizes: [8, 32, 128], strides: [4096, 128, 1] {coordinate_set = #qs, memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
      %ov = ktdp.construct_memory_view %o, sizes: [8, 32, 128], strides: [4096, 128, 1] {coordinate_set = #qs, memory_space = #ktdp.memory_space<global>} : memref<8x32x128xf16>
      %qa = ktdp.construct_access_tile %qv[%t, %c0, %c0] {access_tile_set = #qt, access_tile_order = #id3} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
      // CHECK:      ktdf.pipeline
      // CHECK:        ktdf.data_transfer from %[[QV]][%{{.*}}, %c0, %c0] size [2, 4, 128] to %[[IN]][0, 0] size [8, 128]
      // CHECK:      } {applicable_units = ["MNILU"]}
      // CHECK:      %[[T:.+]] = ktdp.construct_access_tile %[[IN]][0, 0]
      // CHECK-NEXT: %[[B:.+]] = ktdp.load %[[T]] : <8x128xindex> -> tensor<8x128xf16>
      // CHECK-NEXT: %[[E:.+]] = math.exp %[[B]] : tensor<8x128xf16>
      // CHECK-NOT:  tensor.collapse_shape
      %a = ktdp.load %qa : !ktdp.access_tile<2x4x128xindex> -> tensor<2x4x128xf16>
      %b = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x4x128xf16> into tensor<8x128xf16>
      %e = math.exp %b : tensor<8x128xf16>
      // CHECK:      %[[W:.+]] = ktdp.construct_access_tile %[[OUT]][0, 0]
      // CHECK-NEXT: ktdp.store %[[E]], %[[W]] : tensor<8x128xf16>, <8x128xindex>
      // CHECK:      ktdf.pipeline
      // CHECK:        ktdf.data_transfer from %[[OUT]][0, 0] size [8, 128] to %[[OV]][%{{.*}}, %c0, %c0] size [2, 4, 128]
      // CHECK:      } {applicable_units = ["MNISU"]}
      // CHECK-NOT:  tensor.expand_shape
      %x = tensor.expand_shape %e [[0, 1], [2]] output_shape [2, 4, 128] : tensor<8x128xf16> into tensor<2x4x128xf16>
      %oa = ktdp.construct_access_tile %ov[%t, %c0, %c0] {access_tile_set = #qt, access_tile_order = #id3} : memref<8x32x128xf16> -> !ktdp.access_tile<2x4x128xindex>
      ktdp.store %x, %oa : tensor<2x4x128xf16>, !ktdp.access_tile<2x4x128xindex>
      return
    }
  }
}
