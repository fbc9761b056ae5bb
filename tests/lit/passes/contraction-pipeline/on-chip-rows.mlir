// A computed on chip with rows longer than the FIFO takes in one chunk (8 rows of
// 512) reaches the matrix unit a part of a row at a time: A is stored row-major into a
// scratchpad buffer of its shape; each output tile is one row of it (m = 1), and the
// load unit feeds that row's chunk of 64 columns of the current k tile of 256
// (contiguous in the buffer) beside a block of B; B's panel stays in the scratchpad,
// copied from device memory by the first of the 8 output tiles only (under scf.if).

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK-LABEL: module @local_schedule_0
// CHECK:       %[[STAGED:.+]] = memref.alloc() : memref<8x512xf16, "L1">
// CHECK:       %[[PANEL:.+]] = memref.alloc() : memref<2x2x256x32xf16, "L1">
// CHECK:       ktdp.store %squares, %{{.+}} : tensor<8x512xf16>
// CHECK:       scf.if
// CHECK:         ktdf.data_transfer {{.*}} size [256, 2, 32] {{.*}} size [256, 2, 32]
// CHECK:       } {applicable_units = ["MNILU"]}
// CHECK:         ktdf.data_transfer from %[[STAGED]][%{{.+}} mod 8, %{{.+}} * 256 + %{{.+}} * 64] size [1, 64] to %{{.+}} size [64]
// CHECK:       } {applicable_units = ["L1LU"]}

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @squares_times_w(%x: index, %w: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 512], strides: [512, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %wv = ktdp.construct_memory_view %w, sizes: [512, 64], strides: [64, 1] {coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<512x64xf16>
  %cv = ktdp.construct_memory_view %c, sizes: [8, 64], strides: [64, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id} : memref<8x512xf16> -> !ktdp.access_tile<8x512xindex>
  %wt = ktdp.construct_access_tile %wv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id} : memref<512x64xf16> -> !ktdp.access_tile<512x64xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x512xindex> -> tensor<8x512xf16>
  %b = ktdp.load %wt : !ktdp.access_tile<512x64xindex> -> tensor<512x64xf16>
  %squares = arith.mulf %a, %a : tensor<8x512xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %p = linalg.matmul ins(%squares, %b : tensor<8x512xf16>, tensor<512x64xf16>) outs(%init : tensor<8x64xf16>) -> tensor<8x64xf16>
  ktdp.store %p, %ct : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
