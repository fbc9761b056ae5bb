// Stores that compute little: a loaded tile stored as it is gets an identity
// generic to run in the compute stage, and a splat stored with nothing loaded gets
// a pipeline of two stages, compute and store.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %Y: index) {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      %y_view = ktdp.construct_memory_view %Y, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<16xindex> -> tensor<16xf16>
      ktdp.store %x, %y_tile : tensor<16xf16>, !ktdp.access_tile<16xindex>
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%Y: index, %value: f16) {
      %c0 = arith.constant 0 : index
      %y_view = ktdp.construct_memory_view %Y, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
      %fill = tensor.splat %value : tensor<16xf16>
      ktdp.store %fill, %y_tile : tensor<16xf16>, !ktdp.access_tile<16xindex>
      func.return
    }
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:           %[[X:.+]] = ktdf.read_from_fifo %{{.+}}#0 : <"DDR" -> "SFU", 8xf16> -> tensor<8xf16>
// CHECK-NEXT:      %[[EMPTY:.+]] = tensor.empty() : tensor<8xf16>
// CHECK-NEXT:      %[[COPY:.+]] = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%[[X]] : tensor<8xf16>) outs(%[[EMPTY]] : tensor<8xf16>) {
// CHECK-NEXT:      ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:        linalg.yield %[[IN]] : f16
// CHECK-NEXT:      } -> tensor<8xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[COPY]], %{{.+}}#1 : tensor<8xf16>, <"SFU" -> "L1", 8xf16>
// CHECK:           ktdf.data_transfer from %{{.+}}#1 size [8] to %y_tile[%{{.+}}] size [8] : !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, memref<16xf16, strided<[1], offset: ?>, "L1">

// CHECK-LABEL: func.func @local_schedule_1(
// CHECK:         %[[P:.+]]:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#1) {
// CHECK:             linalg.yield %value : f16
// CHECK:           ktdf.write_to_fifo %{{.+}}, %[[P]]#0
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#1) depends_out(%[[P]]#2) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0 size [8] to %y_tile[%{{.+}}] size [8]
// CHECK-NEXT:    }
// CHECK-NEXT:  }
