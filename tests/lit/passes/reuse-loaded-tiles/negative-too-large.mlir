// A row of 20480 f16 (40 KiB) does not fit toy's 64 KiB scratchpad counted twice (as
// double-buffering counts a staging buffer), so the later loop reads X again; on
// spyre's 2 MiB scratchpad the same row is kept.

// RUN: ktc-opt %s --arch toy -p reuse-loaded-tiles | filecheck %s
// RUN: ktc-opt %s --arch spyre -p reuse-loaded-tiles | filecheck %s --check-prefix=SPYRE

// CHECK-LABEL: func.func @wide(
// CHECK-NOT:     memref.alloc
// CHECK-COUNT-2: ktdp.load %x_tile
// SPYRE:         memref.alloc() : memref<1x20480xf16, "L1">

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 20479 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @wide(%X: index, %Y: index, %row: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c20480 = arith.constant 20480 : index
  %x_view = ktdp.construct_memory_view %X, sizes: [4, 20480], strides: [20480, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x20480xf16>
  %y_view = ktdp.construct_memory_view %Y, sizes: [4, 20480], strides: [20480, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x20480xf16>
  %zero = arith.constant dense<0.0> : tensor<1x1024xf16>
  %sum = scf.for %col = %c0 to %c20480 step %c1024 iter_args(%acc = %zero) -> (tensor<1x1024xf16>) {
    %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<4x20480xf16> -> !ktdp.access_tile<1x1024xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
    %next = arith.addf %acc, %x : tensor<1x1024xf16>
    scf.yield %next : tensor<1x1024xf16>
  }
  scf.for %col = %c0 to %c20480 step %c1024 {
    %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<4x20480xf16> -> !ktdp.access_tile<1x1024xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
    %y = arith.addf %x, %sum : tensor<1x1024xf16>
    %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<4x20480xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %y, %y_tile : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  }
  func.return
}
