// Slices of a row computed from the row's reduction (a softmax's chunks of P, each
// stored into a block of its own): the slices' column dimensions are loops of their
// own generics only, so each keeps its whole extent, 64 f16 (one full vector of
// spyre's 64 lanes), instead of taking the lanes the row's 128-element reduction has
// left (1 each, two nested loops of 64 running every generic 64 x 64 times a row). One
// loop over the rows; the loops over the slices' columns take one trip.

// RUN: ktc-opt %s --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s

// CHECK-LABEL: func.func @local_schedule_0
// CHECK:       scf.for %[[ROW:.*]] = %{{.*}} to %c2 step %c1 {
// CHECK-NEXT:    scf.for %[[LEFT:.*]] = %{{.*}} to %[[C64:.*]] step %[[C64]] {
// CHECK-NEXT:      scf.for %[[RIGHT:.*]] = %{{.*}} to %[[C64]] step %[[C64]] {
// CHECK:             ktdp.load {{.*}} -> tensor<1x128xf16>
// CHECK:             ktdp.construct_access_tile %left_tile[%[[ROW]], %[[LEFT]]]
// CHECK-NEXT:        ktdp.load {{.*}} -> tensor<1x64xf16>
// CHECK:             ktdp.construct_access_tile %right_tile[%[[ROW]], %[[RIGHT]]]
// CHECK-NEXT:        ktdp.load {{.*}} -> tensor<1x64xf16>
// CHECK:             %max = linalg.generic {{.*}} ins(%x : tensor<1x128xf16>)
// CHECK:             %left_shifted = linalg.generic {{.*}} ins(%left, %max : tensor<1x64xf16>, tensor<1xf16>) outs(%{{.*}} : tensor<1x64xf16>)
// CHECK:             %right_shifted = linalg.generic {{.*}} ins(%right, %max : tensor<1x64xf16>, tensor<1xf16>) outs(%{{.*}} : tensor<1x64xf16>)
// CHECK:             ktdp.store %left_shifted, {{.*}} : tensor<1x64xf16>
// CHECK:             ktdp.store %right_shifted, {{.*}} : tensor<1x64xf16>
// CHECK-NOT:   scf.for

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %lowest = arith.constant 0xFC00 : f16
      %buffer = memref.alloc() : memref<2x128xf16, "L1">
      %left_out = memref.alloc() : memref<2x64xf16, "L1">
      %right_out = memref.alloc() : memref<2x64xf16, "L1">
      %x_tile = ktdp.construct_access_tile %buffer[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x128xf16, "L1"> -> !ktdp.access_tile<2x128xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
      %empty = tensor.empty() : tensor<2xf16>
      %init = linalg.fill ins(%lowest : f16) outs(%empty : tensor<2xf16>) -> tensor<2xf16>
      %max = linalg.reduce { arith.maximumf } ins(%x : tensor<2x128xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
      %halves = tensor.empty() : tensor<2x64xf16>
      %max_rows = linalg.broadcast ins(%max : tensor<2xf16>) outs(%halves : tensor<2x64xf16>) dimensions = [1]
      %left_tile = ktdp.construct_access_tile %buffer[%c0, %c0] {access_tile_set = #half, access_tile_order = #id2} : memref<2x128xf16, "L1"> -> !ktdp.access_tile<2x64xindex>
      %left = ktdp.load %left_tile : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
      %left_shifted = arith.subf %left, %max_rows : tensor<2x64xf16>
      %left_out_tile = ktdp.construct_access_tile %left_out[%c0, %c0] {access_tile_set = #half, access_tile_order = #id2} : memref<2x64xf16, "L1"> -> !ktdp.access_tile<2x64xindex>
      ktdp.store %left_shifted, %left_out_tile : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
      %c64 = arith.constant 64 : index
      %right_tile = ktdp.construct_access_tile %buffer[%c0, %c64] {access_tile_set = #half, access_tile_order = #id2} : memref<2x128xf16, "L1"> -> !ktdp.access_tile<2x64xindex>
      %right = ktdp.load %right_tile : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
      %right_shifted = arith.subf %right, %max_rows : tensor<2x64xf16>
      %right_out_tile = ktdp.construct_access_tile %right_out[%c0, %c0] {access_tile_set = #half, access_tile_order = #id2} : memref<2x64xf16, "L1"> -> !ktdp.access_tile<2x64xindex>
      ktdp.store %right_shifted, %right_out_tile : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
      func.return
    }
  }
}

