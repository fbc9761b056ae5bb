// A value a linalg body uses is used where its op runs: an element extracted in the
// phase that runs the generic stays where it is (nothing is loaded inside the body),
// and one used by a generic in another phase (a loop) is extracted again before that
// generic, from the reduction's result handed over through a scratchpad buffer.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers | filecheck %s

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %low = arith.constant dense<-65504.0> : tensor<1xf16>
    %m = linalg.reduce { arith.maximumf } ins(%x : tensor<1x128xf16>) outs(%low : tensor<1xf16>) dimensions = [1]
    %max = tensor.extract %m[%c0] : tensor<1xf16>
    %e = tensor.empty() : tensor<1x128xf16>
    %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<1x128xf16>) outs(%e : tensor<1x128xf16>) {
    ^bb0(%v: f16, %o: f16):
      %s = arith.subf %v, %max : f16
      linalg.yield %s : f16
    } -> tensor<1x128xf16>
    ktdp.store %d, %y_tile : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    scf.for %i = %c0 to %c2 step %c1 {
      %x2 = ktdp.load %x_tile : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %e2 = tensor.empty() : tensor<1x128xf16>
      %d2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x2 : tensor<1x128xf16>) outs(%e2 : tensor<1x128xf16>) {
      ^bb0(%v: f16, %o: f16):
        %s = arith.mulf %v, %max : f16
        linalg.yield %s : f16
      } -> tensor<1x128xf16>
      ktdp.store %d2, %y_tile : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    }
    func.return
  }
}

// CHECK:       %[[BUFFER:.+]] = memref.alloc() : memref<1xf16, "L1">
// CHECK:       %[[SLOT:.+]] = ktdp.construct_access_tile %[[BUFFER]][0]
// CHECK:       %m = linalg.reduce
// CHECK-NEXT:  ktdp.store %m, %[[SLOT]]
// CHECK-NEXT:  %max = tensor.extract %m[%c0] : tensor<1xf16>
// CHECK:       linalg.generic
// CHECK-NEXT:  ^bb0(%v: f16, %o: f16):
// CHECK-NEXT:    arith.subf %v, %max : f16
// CHECK:       scf.for
// CHECK:         %[[M:.+]] = ktdp.load %[[SLOT]] : <1xindex> -> tensor<1xf16>
// CHECK:         %[[MAX:.+]] = tensor.extract %[[M]][%c0] : tensor<1xf16>
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^bb0(%v: f16, %o: f16):
// CHECK-NEXT:      arith.mulf %v, %[[MAX]] : f16
