// The three-stage pipeline feeds and drains the compute engine through FIFOs: the
// device must give it ordered queues on both sides, whose largest transfers are
// equal (IBM's device checks). Each failure names the link or the engine in the
// device file; a program is needed for the pass to look at the device at all.

// RUN: not ktc-opt %s --arch %S/Inputs/unordered-queue.mlir -p construct-three-stage-pipeline 2>&1 | filecheck %s --check-prefix=UNORDERED
// RUN: not ktc-opt %s --arch %S/Inputs/unequal-transfers.mlir -p construct-three-stage-pipeline 2>&1 | filecheck %s --check-prefix=UNEQUAL
// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=TOY

// UNORDERED: unordered-queue.mlir:12:5: error: the link from L1 to PE is not an ordered queue; the three-stage pipeline feeds and drains the compute engine PE through FIFOs
// UNEQUAL: unequal-transfers.mlir:18:5: error: the compute engine PE takes transfers of at most 16 bytes but gives at most 32 bytes; the three-stage pipeline needs the two equal
// TOY: } {applicable_units = ["SFU"]}

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %y = math.exp %x : tensor<64xf16>
    ktdp.store %y, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}
