// A copy whose source tile starts at a launch argument, so it may reach past its
// view's box (as a distributed view's copy per partition does): streamed all the same,
// its view marked ktdf.masked, so that each piece's DMA moves only what lies in the
// box (zeros into the buffer for the rest) as the reference masks the load; the
// destination, whose tile stays inside, is not marked.

// RUN: ktc-opt %s --arch toy -p stream-copies | filecheck %s

#big = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @may_leave_its_view(%x: index, %y: index, %row: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [3, 128, 128], strides: [16384, 128, 1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %row, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0, %c0] {access_tile_set = #big, access_tile_order = #id} : memref<3x128x128xf16> -> !ktdp.access_tile<3x128x128xindex>
  %d = ktdp.load %xt : !ktdp.access_tile<3x128x128xindex> -> tensor<3x128x128xf16>
  ktdp.store %d, %yt : tensor<3x128x128xf16>, !ktdp.access_tile<3x128x128xindex>
  return
}

// CHECK-LABEL: func.func @may_leave_its_view
// CHECK:         %[[X:.*]] = ktdp.construct_memory_view %x{{.*}} {coordinate_set = #{{.*}}, ktdf.masked, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16, "DDR">
// CHECK-NEXT:    %[[Y:.*]] = ktdp.construct_memory_view %y{{.*}} {coordinate_set = #{{.*}}, memory_space = #ktdp.memory_space<global>} : memref<3x128x128xf16, "DDR">
// CHECK:         scf.for
// CHECK:           ktdf.data_transfer from %[[X]][%c0 + %{{.*}}, %row + %{{.*}}, %c0 + %{{.*}}] size [1, 128, 128]
// CHECK:           ktdf.data_transfer from %{{.*}} size [1, 128, 128] to %[[Y]]
// CHECK-NOT:     ktdp.load
