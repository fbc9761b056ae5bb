// A store into X's array between the loops, or in the first loop after its load,
// forbids keeping X's blocks: the later loop would read what the store wrote. Both
// programs are left as they are (X still read in every loop, no buffer). A store
// through a view of the same pointer under another name counts too.

// RUN: ktc-opt %s --arch toy -p reuse-loaded-tiles | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  // CHECK-LABEL: func.func @between(
  // CHECK-NOT:     memref.alloc
  // CHECK-COUNT-2: ktdp.load %x_tile
  func.func @between(%X: index, %Y: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %alias = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %zero = arith.constant dense<0.0> : tensor<1x16xf16>
    %sum = scf.for %col = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    %first = ktdp.construct_access_tile %alias[%row, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
    ktdp.store %sum, %first : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    scf.for %col = %c0 to %c256 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %x, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }

  // CHECK-LABEL: func.func @in_place(
  // CHECK-NOT:     memref.alloc
  // CHECK-COUNT-2: ktdp.load %x_tile
  func.func @in_place(%X: index, %Y: index, %row: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    scf.for %col = %c0 to %c256 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %doubled = arith.addf %x, %x : tensor<1x16xf16>
      ktdp.store %doubled, %x_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    scf.for %col = %c0 to %c256 step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      ktdp.store %x, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }
}
