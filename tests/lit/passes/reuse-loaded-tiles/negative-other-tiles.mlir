// Loops that do not read the same tiles are left alone: a later loop over other
// bounds (@other_bounds: half the row), one whose tile is at another row
// (@other_row), one whose index is computed in the loop (@computed_index: the
// column's mirror image), and a tile of a view in the scratchpad (@scratchpad_view).

// RUN: ktc-opt %s --arch toy -p reuse-loaded-tiles | filecheck %s

// CHECK-NOT: memref.alloc

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @other_bounds(%X: index, %Y: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    scf.for %col = %c0 to %c128 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.addf %x, %sum : tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }

  func.func @other_row(%X: index, %Y: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %next_row = arith.addi %row, %c1 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    scf.for %col = %c0 to %c256 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%next_row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.addf %x, %sum : tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }

  func.func @computed_index(%X: index, %Y: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c240 = arith.constant 240 : index
    %c256 = arith.constant 256 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    scf.for %col = %c0 to %c256 step %c16 {
      %mirror = arith.subi %c240, %col : index
      %x_tile = ktdp.construct_access_tile %x_view[%row, %mirror] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.addf %x, %sum : tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }

  func.func @scratchpad_view(%Y: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x_view = ktdp.construct_memory_view %c0, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    scf.for %col = %c0 to %c256 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.addf %x, %sum : tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }
}
