// Running the pass twice gives what running it once gives: once the loads and
// stores have become pipelines, no function stores anything any more, so the
// second run finds no program (the pipelines' own loops, buffers and generics are
// left as they are). Shown on this file and on the other inputs of this folder.

// RUN: ktc-opt %s --arch toy -p construct-three-stage-pipeline > %t.once
// RUN: ktc-opt %s --arch toy -p construct-three-stage-pipeline,construct-three-stage-pipeline | diff %t.once -
// RUN: ktc-opt %t.once -p construct-three-stage-pipeline | diff %t.once -
// RUN: filecheck %s < %t.once
// RUN: ktc-opt %S/phases.mlir --arch toy -p construct-three-stage-pipeline > %t.phases
// RUN: ktc-opt %t.phases -p construct-three-stage-pipeline | diff %t.phases -
// RUN: ktc-opt %S/chain.mlir --arch spyre -p construct-three-stage-pipeline > %t.chain
// RUN: ktc-opt %t.chain -p construct-three-stage-pipeline | diff %t.chain -

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<16xindex> -> tensor<16xf16>
    %y = math.exp %x : tensor<16xf16>
    ktdp.store %y, %y_tile : tensor<16xf16>, !ktdp.access_tile<16xindex>
    func.return
  }
}

// CHECK-COUNT-1: ktdf.pipeline
// CHECK-NOT:     ktdf.pipeline
