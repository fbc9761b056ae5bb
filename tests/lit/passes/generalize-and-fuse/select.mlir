// A compare's tensor of i1 fuses into the selects reading it, so the mask lives only
// in their bodies: a clamp (two compares, a select of a scalar splat by each), and a
// compare of a row with a per-row threshold broadcast over it whose mask two selects
// read (each gets its own copy of the compare). No tensor of i1 is left.

// RUN: ktc-opt %s -p generalize-and-fuse | filecheck %s

// CHECK-LABEL: func.func @clamp
// CHECK-NOT:     tensor<64xi1>
// CHECK:         linalg.generic {{.*}} ins(%x : tensor<64xf16>)
// CHECK:           arith.cmpf olt, %{{.*}}, %lo : f16
// CHECK:           arith.select %{{.*}}, %lo, %{{.*}} : f16
// CHECK:           %[[ABOVE:.*]] = arith.cmpf ogt, %{{.*}}, %hi : f16
// CHECK-NEXT:      %[[CLAMPED:.*]] = arith.select %[[ABOVE]], %hi, %{{.*}} : f16
// CHECK-NEXT:      linalg.yield %[[CLAMPED]] : f16
// CHECK-NOT:     tensor<64xi1>

// CHECK-LABEL: func.func @threshold
// CHECK-NOT:     xi1>
// CHECK:         %{{.*}} = linalg.generic {{.*}} ins(%x, %t : tensor<1x64xf16>, tensor<1xf16>)
// CHECK:           arith.cmpf uge
// CHECK:           arith.select
// CHECK:         %{{.*}} = linalg.generic {{.*}} ins(%x, %t : tensor<1x64xf16>, tensor<1xf16>)
// CHECK:           arith.cmpf uge
// CHECK:           arith.select
// CHECK-NOT:     xi1>

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @clamp(%X: index, %Y: index, %lo: f16, %hi: f16) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %low = tensor.splat %lo : tensor<64xf16>
    %high = tensor.splat %hi : tensor<64xf16>
    %below = arith.cmpf olt, %x, %low : tensor<64xf16>
    %up = arith.select %below, %low, %x : tensor<64xi1>, tensor<64xf16>
    %above = arith.cmpf ogt, %up, %high : tensor<64xf16>
    %clamped = arith.select %above, %high, %up : tensor<64xi1>, tensor<64xf16>
    ktdp.store %clamped, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    return
  }

  func.func @threshold(%X: index, %T: index, %Y: index, %Z: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %t_view = ktdp.construct_memory_view %T, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %z_view = ktdp.construct_memory_view %Z, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %t_tile = ktdp.construct_access_tile %t_view[%c0] {access_tile_set = #one, access_tile_order = #id} : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %t = ktdp.load %t_tile : !ktdp.access_tile<1xindex> -> tensor<1xf16>
    %full = tensor.empty() : tensor<1x64xf16>
    %t_row = linalg.broadcast ins(%t : tensor<1xf16>) outs(%full : tensor<1x64xf16>) dimensions = [1]
    %keep = arith.cmpf uge, %x, %t_row : tensor<1x64xf16>
    %zero = arith.constant dense<0.0> : tensor<1x64xf16>
    %kept = arith.select %keep, %x, %zero : tensor<1x64xi1>, tensor<1x64xf16>
    %dropped = arith.select %keep, %zero, %x : tensor<1x64xi1>, tensor<1x64xf16>
    ktdp.store %kept, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    ktdp.store %dropped, %z_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    return
  }
}
