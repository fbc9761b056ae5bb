// A generic may read a fixed position of a tensor only along a dimension the
// tiling keeps whole: here a softmax step written for one row is applied to a tile
// of two rows, so the maximum of row 0 is broadcast over both rows; with one row
// per tile, the second tile would not hold row 0. Reported at the fused generic,
// located at the op it grew from.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [2, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %ninf = arith.constant 0xFC00 : f16
    %init = tensor.splat %ninf : tensor<2xf16>
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<2x64xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
    %first = tensor.extract %max[%c0] : tensor<2xf16>
    %rows = tensor.splat %first : tensor<2x64xf16>
    // expected-error@+1 {{'linalg.generic' reads position 0 along a dimension tiled by 1; a tile does not hold that position}}
    %shifted = arith.subf %x, %rows : tensor<2x64xf16>
    ktdp.store %shifted, %y_tile : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    func.return
  }
}
