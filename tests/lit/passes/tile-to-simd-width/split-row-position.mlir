// A position along a loop tiled by one is the tile loop's variable: on toy, whose
// 8 fp16 lanes take one row of 8 of the 2 x 8 tile at a time, the row position of
// the tiled generic is the row loop's variable (no linalg.index 0 is left), the
// column position still the generic's own.

// RUN: ktc-opt %s --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width | filecheck %s

// CHECK:      scf.for %[[ROW:[^ ]+]] = %{{.+}} to %c2 step %c1 {
// CHECK:        linalg.generic
// CHECK-NOT:      linalg.index 0
// CHECK:          %[[C:.+]] = linalg.index 1 : index
// CHECK-NEXT:     %[[SUM:.+]] = arith.addi %[[ROW]], %[[C]] : index
// CHECK-NEXT:     arith.index_cast %[[SUM]] : index to i32

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [2, 8], strides: [8, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #mat, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<2x8xindex> -> tensor<2x8xf16>
    %empty = tensor.empty() : tensor<2x8xf16>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x8xf16>) outs(%empty : tensor<2x8xf16>) {
    ^bb0(%in: f16, %out: f16):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %k = arith.addi %i, %j : index
      %kk = arith.index_cast %k : index to i32
      %f = arith.sitofp %kk : i32 to f16
      %s = arith.addf %in, %f : f16
      linalg.yield %s : f16
    } -> tensor<2x8xf16>
    ktdp.store %r, %x_tile : tensor<2x8xf16>, !ktdp.access_tile<2x8xindex>
    func.return
  }
}
