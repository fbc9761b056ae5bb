// A computed on chip with rows longer than the FIFO takes in one chunk (8 rows of
// 512) reaches the matrix unit 8 rows by 64 columns at a time: A is stored chunk-major
// into a scratchpad buffer (8 blocks of 8 x 64, each a row-major block of 64 columns of
// A), one store per block of a slice of A that fold-reshapes-and-slices folds into the
// compute making it (8 x 64 squares of 8 x 64 loaded tiles of x); the load unit feeds a
// whole block (contiguous) beside a block of B, chunk kc of k tile kt being block
// kt * 8 + kc.

// RUN: ktc-opt %s --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling,contraction-pipeline,fold-reshapes-and-slices | filecheck %s

// CHECK-LABEL: module @local_schedule_0
// CHECK:       %[[STAGED:.+]] = memref.alloc() : memref<8x8x64xf16, "L1">
// CHECK-NOT:   tensor.extract_slice
// CHECK:       ktdp.load %{{.+}} : <8x64xindex> -> tensor<8x64xf16>
// CHECK:       %[[S0:.+]] = arith.mulf %{{.+}}, %{{.+}} : tensor<8x64xf16>
// CHECK:       memref.reinterpret_cast %[[STAGED]] to offset: [0], sizes: [8, 64], strides: [64, 1]
// CHECK:       ktdp.store %[[S0]], %{{.+}} : tensor<8x64xf16>
// CHECK:       memref.reinterpret_cast %[[STAGED]] to offset: [512], sizes: [8, 64], strides: [64, 1]
// CHECK-COUNT-7: ktdp.store %{{.+}} : tensor<8x64xf16>
// CHECK-NOT:   ktdp.store %{{.+}} : tensor<8x64xf16>
// CHECK:       ktdf.data_transfer from %[[STAGED]][%{{.+}} * 8 + %{{.+}}, %{{.+}} * 8, 0] size [1, 8, 64] to %{{.+}} size [512]
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
