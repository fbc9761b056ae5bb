// A resident operand's schedule on toy (@column of the contraction-tiling test: four
// 8 x 16 output tiles down one column share B, 64 x 16 over four k steps). B's panel is
// one scratchpad buffer of its four k tiles, allocated with the result buffer; each k
// tile's pipeline views its k tile of it. The DMA stage copies A's chunks for every tile
// but B's k tile only for the first output tile of the column (tile mod 4 == 0); the
// buffers A's two, used in turn (B's k tile is its panel's). The output tiles go in column order: the
// drain puts tile t at row (t mod 4) * 8, column (t floordiv 4) * 16.

// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK-LABEL: func.func @column
// CHECK-NEXT:    memref.alloc() : memref<32x16xf32, "L1">
// CHECK-NEXT:    memref.alloc() : memref<2x8x8xf32, "PT_ACC">
// CHECK-NEXT:    %[[PANEL:.+]] = memref.alloc() : memref<4x2x16x8xf16, "L1">
// CHECK-NEXT:    memref.alloc() : memref<8x16xf16, "L1">
// CHECK-NEXT:    memref.alloc() : memref<4x8x4xf16, "L1">
// CHECK-NEXT:    memref.alloc() : memref<4x8x4xf16, "L1">
// CHECK:         scf.for %[[TILE:.+]] = %{{.+}} to %{{.+}} step
// CHECK:           ktdf.select_memref %{{.+}} : memref<4x8x4xf16, "L1">
// CHECK:           %[[B:.+]] = memref.reinterpret_cast %[[PANEL]] to offset: [%{{.+}}], sizes: [2, 16, 8], strides: [128, 8, 1]
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.private -> (!ktdf.fifo.slot
// CHECK:             ktdf.data_transfer from %{{.+}} size [8, 4, 4] to %{{.+}} size [8, 4, 4]
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK:             %[[INDEX:.+]] = affine.apply #[[MOD:.+]](%[[TILE]])
// CHECK-NEXT:        %[[FIRST:.+]] = arith.cmpi eq, %[[INDEX]], %{{.+}} : index
// CHECK-NEXT:        scf.if %[[FIRST]] {
// CHECK-NEXT:          memref.reinterpret_cast %bv
// CHECK-NEXT:          memref.reinterpret_cast %[[B]] to offset: [0], sizes: [16, 2, 8]
// CHECK-NEXT:          ktdf.data_transfer
// CHECK-NEXT:        }
// CHECK-NEXT:      } {applicable_units = ["MNILU"]}
// CHECK:           ktdf.data_transfer from %[[B]][%{{.+}}, %{{.+}} * 4, 0] size [1, 4, 8]
// CHECK:         ktdf.data_transfer from %{{.+}} size [8] to %{{.+}}[(%[[TILE]] mod 4) * 8 + %{{.+}}, (%[[TILE]] floordiv 4) * 16 + %{{.+}} * 8] size [1, 8]
// CHECK-LABEL: func.func @row

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
}
