// What this pass leaves holds no reshape or slice, so a second run prints what the
// first did (once printed and read back): loads and stores through the folded tiles
// stay as they are.

// RUN: ktc-opt %s -p fold-reshapes-and-slices | ktc-opt > %t
// RUN: ktc-opt %t -p fold-reshapes-and-slices | diff %t -
// RUN: filecheck %s < %t

#ms = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#fs = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @twice(%m: index, %y: index) {
  %c0 = arith.constant 0 : index
  %mv = ktdp.construct_memory_view %m, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [512], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<512xf16>
  %ma = ktdp.construct_access_tile %mv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ya = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<512xf16> -> !ktdp.access_tile<512xindex>
  %b = ktdp.load %ma : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %e = math.exp %b : tensor<8x64xf16>
  %flat = tensor.collapse_shape %e [[0, 1]] : tensor<8x64xf16> into tensor<512xf16>
  ktdp.store %flat, %ya : tensor<512xf16>, !ktdp.access_tile<512xindex>
  return
}

// CHECK-LABEL: func.func @twice
// CHECK:         %e = math.exp %b : tensor<8x64xf16>
// CHECK:         ktdp.construct_memory_view %{{.+}}, sizes: [8, 64], strides: [64, 1] {{.*}} : memref<8x64xf16>
// CHECK:         ktdp.store %e, %{{.+}} : tensor<8x64xf16>, <8x64xindex>
// CHECK-NOT:     tensor.collapse_shape
