// The memory kinds come from the device, so a program without a device declaration
// (no --arch) is an error; a module without programs needs no device and is left
// alone.

// RUN: not ktc-opt %s -p lower-ktdp-views 2>&1 | filecheck %s
// RUN: ktc-opt %S/../../arch/Inputs/line4.mlir -p lower-ktdp-views | filecheck %s --check-prefix=NONE

// CHECK: error: no device declared: pass --arch NAME|FILE or import a device file
// NONE:  ktdf_arch.device @line4

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
    ktdp.store %x, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}
