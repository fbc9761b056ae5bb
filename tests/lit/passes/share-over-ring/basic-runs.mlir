// All 32 tiles of a [1, 32] grid on spyre multiply their own 8 rows of A by the same
// columns of B (the benchmark's matmul, 256 x 64 x 256 in k steps of 64), so every tile
// copies the same k tile of B at every iteration. One owner for the 32 would send 31
// blocks from its stop; the bound cuts the group into 4 runs of 8 ring neighbours
// (4 blocks through device memory an iteration): the positions count 0 to 7 four
// times; the owner's table is each tile's position less its run's index (modulo 8:
// run g's owner at iteration i is its member i + g), so that the four owners of an
// iteration are not side by side. A copy holds its whole route, so the bound relays
// the block rather than have the owner send 7: 7 forwarding stages (not 31) each copy
// the k tile one member on, runs 0 and 2 onwards (tile 7 to 0), runs 1 and 3 back
// (tile 8 to 15), the neighbouring runs' relays on the two directions of the links.
// The first stage is taken by the owner; the r-th by the member r - 1 steps on from
// it, whose table is the owner's less r - 1 steps (run 1 the other way: plus), and
// which forwards what the stage before brought (ktdf.relayed).

// RUN: ktc-opt %s --arch spyre -p normalize-contractions,contraction-tiling,contraction-pipeline,share-over-ring > %t
// RUN: filecheck %s < %t
// RUN: ktc-opt %t -p share-over-ring | diff %t -

// CHECK:     ktdf.tile_table %{{.+}} {values = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 7, 0, 1, 2, 3, 4, 5, 6, 6, 7, 0, 1, 2, 3, 4, 5, 5, 6, 7, 0, 1, 2, 3, 4>}
// CHECK:     ktdf.data_transfer {{.+}} {ktdf.shared_over_ring = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7>}
// CHECK:     ktdf.tile_table %{{.+}} {values = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 7, 0, 1, 2, 3, 4, 5, 6, 6, 7, 0, 1, 2, 3, 4, 5, 5, 6, 7, 0, 1, 2, 3, 4>}
// CHECK:     ktdf.data_transfer
// CHECK-NOT: ktdf.relayed
// CHECK-SAME: ktdf.to_tiles = array<i64: 1, 2, 3, 4, 5, 6, 7, 0, 15, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 23, 16, 31, 24, 25, 26, 27, 28, 29, 30>
// CHECK:     ktdf.tile_table %{{.+}} {values = array<i64: 7, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 5, 6, 7, 0, 1, 2, 3, 4, 6, 7, 0, 1, 2, 3, 4, 5>}
// CHECK:     ktdf.data_transfer {{.+}} {ktdf.relayed, ktdf.to_tiles = array<i64: 1, 2, 3, 4, 5, 6, 7, 0, 15, 8, 9, 10, 11, 12, 13, 14, 17,
// CHECK-COUNT-5: ktdf.relayed, ktdf.to_tiles = array<i64: 1, 2, 3, 4, 5, 6, 7, 0, 15, 8,
// CHECK-NOT: ktdf.to_tiles
// CHECK-NOT: ktdf.shared_over_ring

module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [1, 32]} {
    %c0 = arith.constant 0 : index
    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index
    %a_view = ktdp.construct_memory_view %a, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x256xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x64xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x64xf16>
    %block_m = arith.constant 8 : index
    %block_n = arith.constant 64 : index
    %block_k = arith.constant 64 : index
    %depth = arith.constant 256 : index
    %row = arith.muli %tile_m, %block_m : index
    %col = arith.muli %tile_n, %block_n : index
    %zeros = arith.constant dense<0.0> : tensor<8x64xf16>
    %product = scf.for %kk = %c0 to %depth step %block_k iter_args(%acc = %zeros) -> (tensor<8x64xf16>) {
      %x_tile = ktdp.construct_access_tile %a_view[%row, %kk] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<256x256xf16> -> !ktdp.access_tile<8x64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
      %y_tile = ktdp.construct_access_tile %b_view[%kk, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %y = ktdp.load %y_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %empty = tensor.empty() : tensor<8x64xf16>
      %dot = linalg.matmul ins(%x, %y : tensor<8x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<8x64xf16>) -> tensor<8x64xf16>
      %next = arith.addf %acc, %dot : tensor<8x64xf16>
      scf.yield %next : tensor<8x64xf16>
    }
      %product_tile = ktdp.construct_access_tile %c_view[%row, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<256x64xf16> -> !ktdp.access_tile<8x64xindex>
      ktdp.store %product, %product_tile : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    return
  }
}

