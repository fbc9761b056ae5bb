// A computed A whose rows do not start on the scratchpad's 128-byte units (8 rows of
// 520 f16, 1,040 bytes) cannot be fed a part of a row at a time, and its whole rows
// fit no tiles of spyre's FIFO: the SIMD engine (SFU) multiplies it, as it did every
// computed A of rows this long before partial rows were fed.

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s

// CHECK: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 64 : i64, chunk = 520 : i64, engine = "SFU", estimated_cycles = {{[0-9]+}} : i64, k = 520 : i64, m = 8 : i64, n = 64 : i64}}

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 519 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 519 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @squares_times_w(%x: index, %w: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 520], strides: [520, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x520xf16>
  %wv = ktdp.construct_memory_view %w, sizes: [520, 64], strides: [64, 1] {coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<520x64xf16>
  %cv = ktdp.construct_memory_view %c, sizes: [8, 64], strides: [64, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id} : memref<8x520xf16> -> !ktdp.access_tile<8x520xindex>
  %wt = ktdp.construct_access_tile %wv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id} : memref<520x64xf16> -> !ktdp.access_tile<520x64xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x520xindex> -> tensor<8x520xf16>
  %b = ktdp.load %wt : !ktdp.access_tile<520x64xindex> -> tensor<520x64xf16>
  %squares = arith.mulf %a, %a : tensor<8x520xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %p = linalg.matmul ins(%squares, %b : tensor<8x520xf16>, tensor<520x64xf16>) outs(%init : tensor<8x64xf16>) -> tensor<8x64xf16>
  ktdp.store %p, %ct : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
