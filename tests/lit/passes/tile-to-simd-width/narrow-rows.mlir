// Rows of 32 are narrower than spyre's 64 lanes. Two rows join into one 64-element
// tile only where every operand's tile is one element or the whole tile: an
// elementwise negation of a 2x32 block moves both rows at once, but a row vector
// broadcast over the rows, or a row sum (one element per row), keeps one row per
// tile, so the loop runs over the 2 rows and each tile holds 32 elements.

// RUN: ktc-opt %s --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s

#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [2, 32], strides: [32, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %y_view = ktdp.construct_memory_view %Y, sizes: [2, 32], strides: [32, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
      %y = arith.negf %x : tensor<2x32xf16>
      ktdp.store %y, %y_tile : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%X: index, %V: index, %Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [2, 32], strides: [32, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %v_view = ktdp.construct_memory_view %V, sizes: [32], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
      %y_view = ktdp.construct_memory_view %Y, sizes: [2, 32], strides: [32, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %v_tile = ktdp.construct_access_tile %v_view[%c0] {access_tile_set = #row, access_tile_order = #id1} : memref<32xf16> -> !ktdp.access_tile<32xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
      %v = ktdp.load %v_tile : !ktdp.access_tile<32xindex> -> tensor<32xf16>
      %empty = tensor.empty() : tensor<2x32xf16>
      %rows = linalg.broadcast ins(%v : tensor<32xf16>) outs(%empty : tensor<2x32xf16>) dimensions = [0]
      %y = arith.subf %rows, %x : tensor<2x32xf16>
      ktdp.store %y, %y_tile : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
      func.return
    }
  }
  module @local_schedule_2 {
    func.func @local_schedule_2(%X: index, %S: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [2, 32], strides: [32, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %s_view = ktdp.construct_memory_view %S, sizes: [2], strides: [1] {coordinate_set = #two, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %s_tile = ktdp.construct_access_tile %s_view[%c0] {access_tile_set = #two, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<2xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<2x32xindex> -> tensor<2x32xf16>
      %zero = arith.constant dense<0.0> : tensor<2xf16>
      %sum = linalg.reduce ins(%x : tensor<2x32xf16>) outs(%zero : tensor<2xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %s = arith.addf %in, %acc : f16
          linalg.yield %s : f16
        }
      ktdp.store %sum, %s_tile : tensor<2xf16>, !ktdp.access_tile<2xindex>
      func.return
    }
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %c2 step %c2 {
// CHECK-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %c32 step %c32 {
// CHECK-NEXT:        %[[X:.+]] = ktdp.construct_access_tile %x_tile[%[[I]], %[[J]]] {{.*}} -> !ktdp.access_tile<2x32xindex>
// CHECK-NEXT:        ktdp.load %[[X]] : <2x32xindex> -> tensor<2x32xf16>
// CHECK-LABEL: func.func @local_schedule_1(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %c2 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %c32 step %c32 {
// CHECK-NEXT:        %[[X:.+]] = ktdp.construct_access_tile %x_tile[%[[I]], %[[J]]] {{.*}} -> !ktdp.access_tile<1x32xindex>
// CHECK-NEXT:        ktdp.load %[[X]] : <1x32xindex> -> tensor<1x32xf16>
// CHECK-NEXT:        %[[V:.+]] = ktdp.construct_access_tile %v_tile[%[[J]]] {{.*}} -> !ktdp.access_tile<32xindex>
// CHECK-NEXT:        ktdp.load %[[V]] : <32xindex> -> tensor<32xf16>
// CHECK-LABEL: func.func @local_schedule_2(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %c2 step %c1 {
// CHECK-NEXT:      %[[X:.+]] = ktdp.construct_access_tile %x_tile[%[[I]], 0] {{.*}} -> !ktdp.access_tile<1x32xindex>
// CHECK-NEXT:      ktdp.load %[[X]] : <1x32xindex> -> tensor<1x32xf16>
// CHECK:           %[[S:.+]] = ktdp.construct_access_tile %s_tile[%[[I]]] {{.*}} -> !ktdp.access_tile<1xindex>
// CHECK-NEXT:      ktdp.store %{{.+}}, %[[S]] : tensor<1xf16>, <1xindex>
