// A dimension some generic does not loop over keeps its whole extent only where every
// operand's tile stays one element or its generic's whole tile: a row vector of 64
// f16 is negated and stored (a generic over its columns alone) and added to each of
// the 4 rows of a block; a tile of all 4 rows would give the vector a tile (64) that
// is neither one element nor the sum's tile (256), so the rows take 1, as the lanes'
// rule gives, and the loop runs over them.

// RUN: ktc-opt %s --arch spyre -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s

// CHECK-LABEL: func.func @local_schedule_0
// CHECK:       scf.for %{{.*}} = %{{.*}} to %c4 step %c1 {
// CHECK:         ktdp.load {{.*}} -> tensor<1x64xf16>
// CHECK:         ktdp.load {{.*}} -> tensor<64xf16>
// CHECK:         %negated = linalg.generic {{.*}} ins(%w : tensor<64xf16>)
// CHECK:         ktdp.store {{.*}} : tensor<1x64xf16>

#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#line = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %W: index, %Y: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %w_view = ktdp.construct_memory_view %W, sizes: [64], strides: [1] {coordinate_set = #line, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %y_view = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      %w_tile = ktdp.construct_access_tile %w_view[%c0] {access_tile_set = #line, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %w = ktdp.load %w_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      %negated = arith.negf %w : tensor<64xf16>
      %empty = tensor.empty() : tensor<4x64xf16>
      %rows = linalg.broadcast ins(%negated : tensor<64xf16>) outs(%empty : tensor<4x64xf16>) dimensions = [0]
      %y = arith.addf %x, %rows : tensor<4x64xf16>
      ktdp.store %y, %y_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
      ktdp.store %negated, %w_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
      func.return
    }
  }
}
