// The same program on the three devices, with no change to the passes: the memory
// kinds come from each device's mem_space_mapping (global and ct_local are "DDR"
// and "L1" on spyre and toy, "HBM" and "SPM" on the line of four cores), the
// compute stage's unit and the FIFOs' far end from its compute engine ("SFU", or
// "VPU"), and the tile from its f32 lanes (spyre 32, toy 4, the line 32).

// RUN: ktc-opt %s --arch spyre -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=LINE4

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %B: index, %Y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
    %b_view = ktdp.construct_memory_view %B, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<128xf32>
    %y_view = ktdp.construct_memory_view %Y, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<128xf32> -> !ktdp.access_tile<128xindex>
    %b_tile = ktdp.construct_access_tile %b_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<128xf32> -> !ktdp.access_tile<128xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<128xf32> -> !ktdp.access_tile<128xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<128xindex> -> tensor<128xf32>
    %b = ktdp.load %b_tile : !ktdp.access_tile<128xindex> -> tensor<128xf32>
    %y = arith.addf %x, %b : tensor<128xf32>
    ktdp.store %y, %y_tile : tensor<128xf32>, !ktdp.access_tile<128xindex>
    func.return
  }
}

// SPYRE:       %x_view = ktdp.construct_memory_view {{.*}} : memref<128xf32, "DDR">
// SPYRE-NEXT:  %b_view = ktdp.construct_memory_view {{.*}} : memref<128xf32, "L1">
// SPYRE:       scf.for %[[I:.+]] = %{{.+}} to %[[N:.+]] step %[[STEP:.+]] {
// SPYRE:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 32xf32>, !ktdf.fifo.slot<"L1" -> "SFU", 32xf32>, !ktdf.fifo.slot<"SFU" -> "DDR", 32xf32>,
// SPYRE:         ktdf.data_transfer from %x_tile[%[[I]]] size [32]
// SPYRE-NEXT:    ktdf.data_transfer from %b_tile[%[[I]]] size [32] to %{{.+}} size [32] : memref<128xf32, strided<[1], offset: ?>, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 32xf32>
// SPYRE:         } {applicable_units = ["SFU"]}
// SPYRE:         ktdf.data_transfer from %{{.+}} size [32] to %y_tile[%[[I]]] size [32] : !ktdf.fifo.slot<"SFU" -> "DDR", 32xf32>

// TOY:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 4xf32>, !ktdf.fifo.slot<"L1" -> "SFU", 4xf32>, !ktdf.fifo.slot<"SFU" -> "DDR", 4xf32>,
// TOY:         ktdf.data_transfer from %x_tile[%{{.+}}] size [4]
// TOY:         ktdf.read_from_fifo %{{.+}} : <"DDR" -> "SFU", 4xf32> -> tensor<4xf32>
// TOY:         } {applicable_units = ["SFU"]}

// LINE4:       %x_view = ktdp.construct_memory_view {{.*}} : memref<128xf32, "HBM">
// LINE4-NEXT:  %b_view = ktdp.construct_memory_view {{.*}} : memref<128xf32, "SPM">
// LINE4:       ktdf.private -> (!ktdf.fifo.slot<"HBM" -> "VPU", 32xf32>, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>, !ktdf.fifo.slot<"VPU" -> "HBM", 32xf32>,
// LINE4:       ktdf.data_transfer from %b_tile[%{{.+}}] size [32] to %{{.+}} size [32] : memref<128xf32, strided<[1], offset: ?>, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>
// LINE4:       } {applicable_units = ["VPU"]}
