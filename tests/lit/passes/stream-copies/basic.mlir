// A copy of a 3x128x128 f16 tile (96 KiB), larger than toy's 64 KiB scratchpad,
// from one view into rows 1 to 3 of another: a loop over the tile's outer dimension
// around a pipeline of two stages sharing a private scratchpad buffer of one
// 128x128 piece (32 KiB, half the scratchpad), the first reading the piece on the
// engine moving device memory into the scratchpad, the second writing it on the one
// moving it back. A 2x64x512 copy's pieces are single rows: 64 rows of 512 would be
// 64 KiB. The loads, stores and tiles are erased.

// RUN: ktc-opt %s --arch toy -p stream-copies | filecheck %s

#src = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#dst = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#wide = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 511 >= 0)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @copy(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %xv = ktdp.construct_memory_view %x, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #src, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128, 128], strides: [16384, 128, 1] {coordinate_set = #dst, memory_space = #ktdp.memory_space<global>} : memref<4x128x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0, %c0] {access_tile_set = #src, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %yt = ktdp.construct_access_tile %yv[%c1, %c0, %c0] {access_tile_set = #src, access_tile_order = #id} : memref<4x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %d = ktdp.load %xt : !ktdp.access_tile<3x128x128xindex> -> tensor<3x128x128xf16>
  ktdp.store %d, %yt : tensor<3x128x128xf16>, !ktdp.access_tile<3x128x128xindex>
  return
}

// CHECK-LABEL: func.func @copy
// CHECK-DAG:     %[[X:.*]] = ktdp.construct_memory_view %x{{.*}} : memref<3x128x128xf16, "DDR">
// CHECK-DAG:     %[[Y:.*]] = ktdp.construct_memory_view %y{{.*}} : memref<4x128x128xf16, "DDR">
// CHECK:         %[[COUNT:.*]] = arith.constant 3 : index
// CHECK-NEXT:    scf.for %[[N:.*]] = %{{.*}} to %[[COUNT]] step
// CHECK-NEXT:      %[[B:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %[[P:.*]]:3 = ktdf.private -> (memref<1x128x128xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK-NEXT:          memref.alloc() : memref<1x128x128xf16, "L1">
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#1) {
// CHECK-NEXT:          ktdf.data_transfer from %[[X]][%c0 + %[[B]], %c0 + %{{.*}}, %c0 + %{{.*}}] size [1, 128, 128] to %[[P]]#0[0, 0, 0] size [1, 128, 128]
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#1) depends_out(%[[P]]#2) {
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#0[0, 0, 0] size [1, 128, 128] to %[[Y]][%c1 + %[[B]], %c0 + %{{.*}}, %c0 + %{{.*}}] size [1, 128, 128]
// CHECK-NEXT:        } {applicable_units = ["MNISU"]}
// CHECK-NOT:     ktdp.load
// CHECK-NOT:     ktdp.store
// CHECK-NOT:     ktdp.construct_access_tile
// CHECK:         return

func.func @rows(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [2, 64, 512], strides: [32768, 512, 1] {coordinate_set = #wide, memory_space = #ktdp.memory_space<global>} : memref<2x64x512xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 64, 512], strides: [32768, 512, 1] {coordinate_set = #wide, memory_space = #ktdp.memory_space<global>} : memref<2x64x512xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0, %c0] {access_tile_set = #wide, access_tile_order = #id} : memref<2x64x512xf16> -> !ktdp.access_tile<2x64x512xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0, %c0] {access_tile_set = #wide, access_tile_order = #id} : memref<2x64x512xf16> -> !ktdp.access_tile<2x64x512xindex>
  %d = ktdp.load %xt : !ktdp.access_tile<2x64x512xindex> -> tensor<2x64x512xf16>
  ktdp.store %d, %yt : tensor<2x64x512xf16>, !ktdp.access_tile<2x64x512xindex>
  return
}

// CHECK-LABEL: func.func @rows
// CHECK:         %[[ROWS:.*]] = arith.constant 128 : index
// CHECK-NEXT:    scf.for %[[N:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK-NEXT:      %[[B:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK-NEXT:      %[[R:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.private -> (memref<1x1x512xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:               ktdf.data_transfer from %{{.*}}[%c0 + %[[B]], %c0 + %[[R]], %c0 + %{{.*}}] size [1, 1, 512]
// CHECK-NOT:     ktdp.load
