// Running the pass on its own output changes nothing: a module that is already
// split into an orchestrator and programs is left alone, whether the second run
// is in the same pipeline or a separate invocation.

// RUN: ktc-opt %s -p compute-group-extraction --arch toy > %t.once
// RUN: ktc-opt %t.once -p compute-group-extraction | diff %t.once -
// RUN: ktc-opt %s -p compute-group-extraction,compute-group-extraction --arch toy | diff %t.once -
// RUN: filecheck %s < %t.once

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @two_groups(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  scf.for %i = %c0 to %c1024 step %c64 {
    %x_tile = ktdp.construct_access_tile %X_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %Y_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %e = math.exp %x : tensor<64xf16>
    ktdp.store %e, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  %x_tile = ktdp.construct_access_tile %X_view[%c1024] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %y_tile = ktdp.construct_access_tile %Y_view[%c1024] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  ktdp.store %x, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// CHECK-COUNT-1: ktdf_arch.device @toy
// CHECK-COUNT-2: func.func private @local_schedule_
// CHECK:         module @local_schedule_0 {
// CHECK:         module @local_schedule_1 {
// CHECK-NOT:     module @local_schedule_2
