// Operand reuse on toy, whose 2 x 8 matrix unit holds one 8 x 16 output tile of
// accumulators. @column's 32 x 16 result is four tiles down one column: they share all
// of B (64 x 16 over the kernel's four k steps), which stays resident and is read from
// device memory once instead of four times. @row's 8 x 64 result is four tiles along one
// row sharing A's 8 rows: A stays. @unknown_trips is @column with the loop's bound an
// argument: the panel's size is not known, so both operands stream for every tile.

// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling | filecheck %s

// CHECK-LABEL: func.func @column
// CHECK:         ktdf.contraction_tiles = {{{.*}}m = 8 : i64, n = 16 : i64, resident = "rhs"}
// CHECK-LABEL: func.func @row
// CHECK:         ktdf.contraction_tiles = {{{.*}}m = 8 : i64, n = 16 : i64, resident = "lhs"}
// CHECK-LABEL: func.func @unknown_trips
// CHECK:         ktdf.contraction_tiles = {{{.*}}m = 8 : i64, n = 16 : i64}}

#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @column(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 16 : index
    %depth = arith.constant 64 : index
    %av = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [64, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [32, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %zeros = arith.constant dense<0.0> : tensor<32x16xf16>
    %sum = scf.for %k = %c0 to %depth step %step iter_args(%acc = %zeros) -> (tensor<32x16xf16>) {
      %at = ktdp.construct_access_tile %av[%c0, %k] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<32x64xf16> -> !ktdp.access_tile<32x16xindex>
      %bt = ktdp.construct_access_tile %bv[%k, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<64x16xf16> -> !ktdp.access_tile<16x16xindex>
      %x = ktdp.load %at : !ktdp.access_tile<32x16xindex> -> tensor<32x16xf16>
      %y = ktdp.load %bt : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
      %e = tensor.empty() : tensor<32x16xf16>
      %p = linalg.matmul ins(%x, %y : tensor<32x16xf16>, tensor<16x16xf16>) outs(%e : tensor<32x16xf16>) -> tensor<32x16xf16>
      %next = arith.addf %acc, %p : tensor<32x16xf16>
      scf.yield %next : tensor<32x16xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    ktdp.store %sum, %ct : tensor<32x16xf16>, !ktdp.access_tile<32x16xindex>
    return
  }
  func.func @row(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 16 : index
    %depth = arith.constant 64 : index
    %av = ktdp.construct_memory_view %a, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %zeros = arith.constant dense<0.0> : tensor<8x64xf16>
    %sum = scf.for %k = %c0 to %depth step %step iter_args(%acc = %zeros) -> (tensor<8x64xf16>) {
      %at = ktdp.construct_access_tile %av[%c0, %k] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<8x16xindex>
      %bt = ktdp.construct_access_tile %bv[%k, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
      %x = ktdp.load %at : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
      %y = ktdp.load %bt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
      %e = tensor.empty() : tensor<8x64xf16>
      %p = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
      %next = arith.addf %acc, %p : tensor<8x64xf16>
      scf.yield %next : tensor<8x64xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %sum, %ct : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    return
  }
  func.func @unknown_trips(%a: index, %b: index, %c: index, %K: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 16 : index
    %av = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [64, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [32, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %zeros = arith.constant dense<0.0> : tensor<32x16xf16>
    %sum = scf.for %k = %c0 to %K step %step iter_args(%acc = %zeros) -> (tensor<32x16xf16>) {
      %at = ktdp.construct_access_tile %av[%c0, %k] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<32x64xf16> -> !ktdp.access_tile<32x16xindex>
      %bt = ktdp.construct_access_tile %bv[%k, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<64x16xf16> -> !ktdp.access_tile<16x16xindex>
      %x = ktdp.load %at : !ktdp.access_tile<32x16xindex> -> tensor<32x16xf16>
      %y = ktdp.load %bt : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
      %e = tensor.empty() : tensor<32x16xf16>
      %p = linalg.matmul ins(%x, %y : tensor<32x16xf16>, tensor<16x16xf16>) outs(%e : tensor<32x16xf16>) -> tensor<32x16xf16>
      %next = arith.addf %acc, %p : tensor<32x16xf16>
      scf.yield %next : tensor<32x16xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = #id} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    ktdp.store %sum, %ct : tensor<32x16xf16>, !ktdp.access_tile<32x16xindex>
    return
  }
}
