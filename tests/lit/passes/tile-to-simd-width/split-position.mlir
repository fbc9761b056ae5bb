// A generic that reads its element's position along a loop split into tiles counts
// it from the tile's start: on toy, whose 8 fp16 lanes split the 16 positions of the
// row into two tiles, the tiled generic's position is the tile loop's variable plus
// the position within the tile (a run-time position). Tiling again changes nothing.

// RUN: ktc-opt %s --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width > %t
// RUN: filecheck %s < %t
// RUN: ktc-opt %t --arch toy -p tile-to-simd-width | diff %t -

// CHECK:      scf.for %[[START:[^ ]+]] = %{{.+}} to %c16 step %c8 {
// CHECK:        linalg.generic
// CHECK:          %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:     %[[AT:.+]] = arith.addi %[[START]], %[[I]] : index
// CHECK-NEXT:     arith.index_cast %[[AT]] : index to i32
// CHECK-NOT:    linalg.index

#row = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [16], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #row, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<16xindex> -> tensor<16xf16>
    %empty = tensor.empty() : tensor<16xf16>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf16>) outs(%empty : tensor<16xf16>) {
    ^bb0(%in: f16, %out: f16):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f16
      %s = arith.addf %in, %f : f16
      linalg.yield %s : f16
    } -> tensor<16xf16>
    ktdp.store %r, %x_tile : tensor<16xf16>, !ktdp.access_tile<16xindex>
    func.return
  }
}
