// Each of a core's matrix units holds only its share of an output tile: on spyre a
// 128 x 256 f32 tile (128 KiB) is four 64-column blocks, two per sub-core's unit, 64 KiB
// in each unit's 64 KiB of accumulators, so this 128 x 256 x 128 product is one output
// tile (chunks of 16 so that four 128 x 16 chunks of A fit the 16 KiB FIFO), not two of
// 64 rows, each of which would copy all of B (one k tile: no panel stays).
// contraction-pipeline sizes the accumulators so (2 x 128 x 64, the blocks of one unit)
// and places block j at j modulo 2 in its unit's memory.

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s
// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s --check-prefix=PIPE

// CHECK: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 64 : i64, chunk = 16 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 128 : i64, m = 128 : i64, n = 256 : i64}}

// PIPE: #[[BLOCK:.+]] = affine_map<(d0) -> ((d0 mod 2) * 8192)>
// PIPE: memref.alloc() : memref<2x128x64xf32, "PT_ACC">
// PIPE: ktdf.parallel (%[[J:.+]], %{{.+}}) = {{.*}} distribute(num_instances = 2)
// PIPE: affine.apply #[[BLOCK]](%[[J]])

module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index
    %a_view = ktdp.construct_memory_view %a, sizes: [128, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<128x128xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<128x256xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<128x256xf16>
    %block_m = arith.constant 128 : index
    %block_n = arith.constant 256 : index
    %block_k = arith.constant 128 : index
    %depth = arith.constant 128 : index
    %row = arith.muli %tile_m, %block_m : index
    %col = arith.muli %tile_n, %block_n : index
    %zeros = arith.constant dense<0.0> : tensor<128x256xf16>
    %product = scf.for %kk = %c0 to %depth step %block_k iter_args(%acc = %zeros) -> (tensor<128x256xf16>) {
      %x_tile = ktdp.construct_access_tile %a_view[%row, %kk] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<128x128xf16> -> !ktdp.access_tile<128x128xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<128x128xindex> -> tensor<128x128xf16>
      %y_tile = ktdp.construct_access_tile %b_view[%kk, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
      %y = ktdp.load %y_tile : !ktdp.access_tile<128x256xindex> -> tensor<128x256xf16>
      %empty = tensor.empty() : tensor<128x256xf16>
      %dot = linalg.matmul ins(%x, %y : tensor<128x128xf16>, tensor<128x256xf16>) outs(%empty : tensor<128x256xf16>) -> tensor<128x256xf16>
      %next = arith.addf %acc, %dot : tensor<128x256xf16>
      scf.yield %next : tensor<128x256xf16>
    }
      %product_tile = ktdp.construct_access_tile %c_view[%row, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
      ktdp.store %product, %product_tile : tensor<128x256xf16>, !ktdp.access_tile<128x256xindex>
    return
  }
}

