// Three sibling loops walk a row of X in 16-column blocks (a sum, a sum of squares,
// then a normalization that also reads W and stores Y): the first loop keeps each block
// it loads in a scratchpad buffer ("L1" on toy) allocated at the program's start, the
// other two load the buffer instead of X. W, read by one loop, and the stores to S and
// Y (other arrays) are left alone. @inside's loops end at the row's 256 columns, so the
// buffer is the row (1 x 256) indexed by the column; @clamped's end at a launch
// argument, so a block may start past the row: the buffer is one block longer and the
// column is clamped to 256, where every such block (all zeros) lands.

// RUN: ktc-opt %s --arch toy -p reuse-loaded-tiles | filecheck %s
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p reuse-loaded-tiles | filecheck %s --check-prefix=LINE4

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @inside(%X: index, %W: index, %Y: index, %S: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %w_view = ktdp.construct_memory_view %W, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    %squares = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %x2 = arith.mulf %x, %x : tensor<1x16xf16>
      %next = arith.addf %acc, %x2 : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    %c0f = arith.constant 0.0 : f16
    %init = tensor.splat %c0f : tensor<1xf16>
    %total = linalg.reduce { arith.addf } ins(%sum : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %s_tile = ktdp.construct_access_tile %s_view[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %total, %s_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    scf.for %col = %c0 to %c256 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %w_tile = ktdp.construct_access_tile %w_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %w = ktdp.load %w_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.mulf %x, %w : tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }

  func.func @clamped(%X: index, %Y: index, %row: index, %n: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %n step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    scf.for %col = %c0 to %n step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.addf %x, %sum : tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }
}

// CHECK-LABEL: func.func @inside(
// CHECK-NEXT:    %[[KEPT:.+]] = memref.alloc() : memref<1x256xf16, "L1">
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[C1:.+]] = %c0 to %c256 step %c16 iter_args
// CHECK-NEXT:      %[[X_TILE:.+]] = ktdp.construct_access_tile %x_view[%row, %[[C1]]]
// CHECK-NEXT:      %[[X:.+]] = ktdp.load %[[X_TILE]]
// CHECK-NEXT:      %[[K1:.+]] = ktdp.construct_access_tile %[[KEPT]][0, %[[C1]]] {{.*}} -> !ktdp.access_tile<1x16xindex>
// CHECK-NEXT:      ktdp.store %[[X]], %[[K1]] : tensor<1x16xf16>, <1x16xindex>
// CHECK-NEXT:      arith.addf %{{.+}}, %[[X]]
// CHECK:         scf.for %[[C2:.+]] = %c0 to %c256 step %c16 iter_args
// CHECK-NEXT:      %[[K2:.+]] = ktdp.construct_access_tile %[[KEPT]][0, %[[C2]]]
// CHECK-NEXT:      %[[X2:.+]] = ktdp.load %[[K2]] : <1x16xindex> -> tensor<1x16xf16>
// CHECK-NEXT:      arith.mulf %[[X2]], %[[X2]]
// CHECK:         ktdp.store %{{.+}}, %s_tile
// CHECK:         scf.for %[[C3:.+]] = %c0 to %c256 step %c16 {
// CHECK-NEXT:      %[[W_TILE:.+]] = ktdp.construct_access_tile %w_view[%row, %[[C3]]]
// CHECK-NEXT:      %[[K3:.+]] = ktdp.construct_access_tile %[[KEPT]][0, %[[C3]]]
// CHECK-NEXT:      %[[X3:.+]] = ktdp.load %[[K3]]
// CHECK-NEXT:      %[[W:.+]] = ktdp.load %[[W_TILE]]
// CHECK-NEXT:      arith.mulf %[[X3]], %[[W]]

// CHECK-LABEL: func.func @clamped(
// CHECK-NEXT:    %[[KEPT:.+]] = memref.alloc() : memref<1x272xf16, "L1">
// CHECK:         scf.for %[[C1:.+]] = %c0 to %n step %c16 iter_args
// CHECK-NEXT:      %[[X_TILE:.+]] = ktdp.construct_access_tile %x_view[%row, %[[C1]]]
// CHECK-NEXT:      %[[X:.+]] = ktdp.load %[[X_TILE]]
// CHECK-NEXT:      %[[END:.+]] = arith.constant 256 : index
// CHECK-NEXT:      %[[AT:.+]] = arith.minui %[[C1]], %[[END]] : index
// CHECK-NEXT:      %[[K1:.+]] = ktdp.construct_access_tile %[[KEPT]][0, %[[AT]]]
// CHECK-NEXT:      ktdp.store %[[X]], %[[K1]]
// CHECK:         scf.for %[[C2:.+]] = %c0 to %n step %c16 {
// CHECK-NEXT:      %[[END2:.+]] = arith.constant 256 : index
// CHECK-NEXT:      %[[AT2:.+]] = arith.minui %[[C2]], %[[END2]] : index
// CHECK-NEXT:      %[[K2:.+]] = ktdp.construct_access_tile %[[KEPT]][0, %[[AT2]]]
// CHECK-NEXT:      %[[X2:.+]] = ktdp.load %[[K2]]
// CHECK-NEXT:      arith.addf %[[X2]], %sum
// CHECK-NOT:     %x_view

// LINE4:         memref.alloc() : memref<1x256xf16, "SPM">
// LINE4:         memref.alloc() : memref<1x272xf16, "SPM">
