// The tile size comes from the compute engine's SIMD lanes for the element type of
// each tile a load or store moves (and will carry through a FIFO): an element type
// the engine has no lanes for (i32 on toy, f64 on the line of four cores) is
// reported at the load or store that would move it.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width
// RUN: not ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p generalize-and-fuse,lower-ktdp-views,tile-to-simd-width 2>&1 | filecheck %s --check-prefix=LINE4

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xi32> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xi32> -> !ktdp.access_tile<64xindex>
    // expected-error@+1 {{the compute engine SFU of device @toy has no SIMD lanes for i32, the element type of this 'ktdp.load'}}
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xi32>
    %y = arith.addi %x, %x : tensor<64xi32>
    ktdp.store %y, %y_tile : tensor<64xi32>, !ktdp.access_tile<64xindex>
    func.return
  }
}

// LINE4: negative-no-lanes.mlir:[[# @LINE - 7]]:{{[0-9]+}}: error: the compute engine VPU of device @line4 has no SIMD lanes for i32, the element type of this 'ktdp.load'

// -----

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index) {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf64>
    %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf64> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %y = arith.extf %x : tensor<64xf16> to tensor<64xf64>
    // expected-error@+1 {{the compute engine SFU of device @toy has no SIMD lanes for f64, the element type of this 'ktdp.store'}}
    ktdp.store %y, %y_tile : tensor<64xf64>, !ktdp.access_tile<64xindex>
    func.return
  }
}

// LINE4: negative-no-lanes.mlir:[[# @LINE - 5]]:{{[0-9]+}}: error: the compute engine VPU of device @line4 has no SIMD lanes for f64, the element type of this 'ktdp.store'
