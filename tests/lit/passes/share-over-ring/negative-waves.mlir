// Four tiles of a [1, 4] grid read the same columns of B, but toy has two cores: the
// grid runs in two waves, and a copy between cores needs every tile running at once,
// so the pass changes nothing.

// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline > %t
// RUN: ktc-opt %t -p share-over-ring | diff %t -
// RUN: filecheck %s < %t

// CHECK:     ktdf.pipeline
// CHECK-NOT: ktdf.to_tiles
// CHECK-NOT: ktdf.shared_over_ring

module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [1, 4]} {
    %c0 = arith.constant 0 : index
    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index
    %a_view = ktdp.construct_memory_view %a, sizes: [48, 36], strides: [36, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 35 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<48x36xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [36, 20], strides: [20, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 35 >= 0, d1 >= 0, -d1 + 19 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<36x20xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [48, 20], strides: [20, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 19 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<48x20xf16>
    %block_m = arith.constant 12 : index
    %block_n = arith.constant 20 : index
    %block_k = arith.constant 12 : index
    %depth = arith.constant 36 : index
    %row = arith.muli %tile_m, %block_m : index
    %col = arith.muli %tile_n, %block_n : index
    %zeros = arith.constant dense<0.0> : tensor<12x20xf16>
    %product = scf.for %kk = %c0 to %depth step %block_k iter_args(%acc = %zeros) -> (tensor<12x20xf16>) {
      %x_tile = ktdp.construct_access_tile %a_view[%row, %kk] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 11 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<48x36xf16> -> !ktdp.access_tile<12x12xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<12x12xindex> -> tensor<12x12xf16>
      %y_tile = ktdp.construct_access_tile %b_view[%kk, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 19 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<36x20xf16> -> !ktdp.access_tile<12x20xindex>
      %y = ktdp.load %y_tile : !ktdp.access_tile<12x20xindex> -> tensor<12x20xf16>
      %empty = tensor.empty() : tensor<12x20xf16>
      %dot = linalg.matmul ins(%x, %y : tensor<12x12xf16>, tensor<12x20xf16>) outs(%empty : tensor<12x20xf16>) -> tensor<12x20xf16>
      %next = arith.addf %acc, %dot : tensor<12x20xf16>
      scf.yield %next : tensor<12x20xf16>
    }
      %product_tile = ktdp.construct_access_tile %c_view[%row, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 19 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<48x20xf16> -> !ktdp.access_tile<12x20xindex>
      ktdp.store %product, %product_tile : tensor<12x20xf16>, !ktdp.access_tile<12x20xindex>
    return
  }
}
