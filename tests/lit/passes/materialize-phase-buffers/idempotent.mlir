// Running the pass twice gives what running it once gives: once every tensor is
// used in the phase that makes it and no loop carries anything, a second run finds
// nothing to hand over. Shown on the program of basic.mlir and on one whose
// accumulator and handed-over tensor sit in a loop nested in another.

// RUN: ktc-opt %S/basic.mlir --arch toy -p materialize-phase-buffers > %t.basic
// RUN: ktc-opt %t.basic -p materialize-phase-buffers | diff %t.basic -
// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers > %t.nested
// RUN: ktc-opt %t.nested -p materialize-phase-buffers | diff %t.nested -
// RUN: filecheck %s < %t.nested

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %n: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    scf.for %row = %c0 to %c64 step %c1 {
      %zero_block = arith.constant dense<0.0> : tensor<1x16xf16>
      %sum = scf.for %col = %c0 to %n step %c16 iter_args(%acc = %zero_block) -> (tensor<1x16xf16>) {
        %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
        %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
        %next = arith.addf %acc, %x : tensor<1x16xf16>
        scf.yield %next : tensor<1x16xf16>
      }
      %doubled = arith.addf %sum, %sum : tensor<1x16xf16>
      scf.for %col = %c0 to %n step %c16 {
        %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
        ktdp.store %doubled, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
      }
    }
    func.return
  }
}

// Both buffers sit at the program's start, outside the row loop:
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NEXT:    memref.alloc() : memref<1x16xf16, "L1">
// CHECK-NEXT:    ktdp.construct_access_tile
// CHECK-NEXT:    memref.alloc() : memref<1x16xf16, "L1">
// CHECK-NEXT:    ktdp.construct_access_tile
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NOT:     iter_args
