// Reshapes and slices become access tiles: a collapse of a loaded tile is a load
// through a view of the collapsed shape starting at the tile's first element (strides
// those of its elements), a slice of a loaded tile a smaller tile at the shifted start
// (a loop index an operand of its map), a slice of elementwise compute that compute
// on slices, an expand of a stored tensor a store through the tile reshaped back, a
// stored insert_slice stores of the piece and of the destination around it, and a
// collapse to rank 0 read by a broadcast the generic reading the 1x1 tile at (0, 0);
// a collapse of an indirect tile's unit dimensions drops those intermediate variables
// (0 in the subscripts); a slice of a generic that broadcasts its bias along the rows is
// the generic on the slices its maps read (the bias along the sliced columns only).

// RUN: ktc-opt %s -p fold-reshapes-and-slices | filecheck %s

#xs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#xt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#ms = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#fs = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @folds(%x: index, %m: index, %y: index, %s: index) attributes {grid = [8]} {
  %i = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %mv = ktdp.construct_memory_view %m, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [512], strides: [1] {coordinate_set = #fs, memory_space = #ktdp.memory_space<global>} : memref<512xf16>
  %sv = ktdp.construct_memory_view %s, sizes: [1, 1], strides: [1, 1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1x1xf16>
  %xa = ktdp.construct_access_tile %xv[%c0 + 2, %c0, %c0] {access_tile_set = #xt, access_tile_order = #id3} : memref<4x8x64xf16> -> !ktdp.access_tile<1x8x64xindex>
  %ma = ktdp.construct_access_tile %mv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ya = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #fs, access_tile_order = #id1} : memref<512xf16> -> !ktdp.access_tile<512xindex>
  %sa = ktdp.construct_access_tile %sv[%c0, %c0] {access_tile_set = #one, access_tile_order = #id2} : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>
  %a = ktdp.load %xa : !ktdp.access_tile<1x8x64xindex> -> tensor<1x8x64xf16>
  %flat = tensor.collapse_shape %a [[0, 1, 2]] : tensor<1x8x64xf16> into tensor<512xf16>
  ktdp.store %flat, %ya : tensor<512xf16>, !ktdp.access_tile<512xindex>
  %b = ktdp.load %ma : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %e = math.exp %b : tensor<8x64xf16>
  %row = tensor.extract_slice %e[%i, 0] [1, 64] [1, 1] : tensor<8x64xf16> to tensor<64xf16>
  %wide = tensor.expand_shape %row [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
  %neg = arith.negf %b : tensor<8x64xf16>
  %whole = tensor.insert_slice %row into %neg[3, 0] [1, 64] [1, 1] : tensor<64xf16> into tensor<8x64xf16>
  ktdp.store %whole, %ma : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  %one = ktdp.load %sa : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
  %scalar = tensor.collapse_shape %one [] : tensor<1x1xf16> into tensor<f16>
  %init = tensor.empty() : tensor<4x64xf16>
  %spread = linalg.broadcast ins(%scalar : tensor<f16>) outs(%init : tensor<4x64xf16>) dimensions = [0, 1]
  return
}

// CHECK-DAG:   #[[ROW_AT:.+]] = affine_map<(d0, d1)[s0] -> (d0 * 65 + d1 * 64 + s0)>
// CHECK-DAG:   #[[ROW3:.+]] = affine_map<(d0)[s0] -> (d0 * 65 + s0 + 192)>
// CHECK-DAG:   #[[ZERO:.+]] = affine_map<(d0, d1) -> (0, 0)>
// CHECK-LABEL: func.func @folds
// CHECK:         %a = ktdp.load %xa : <1x8x64xindex> -> tensor<1x8x64xf16>
// CHECK-NEXT:    %[[YO:.+]] = affine.apply #{{.+}} (%c0)[%y]
// CHECK-NEXT:    %[[YV:.+]] = ktdp.construct_memory_view %[[YO]], sizes: [1, 8, 64], strides: [512, 64, 1] {{.*}} : memref<1x8x64xf16>
// CHECK-NEXT:    %[[YT:.+]] = ktdp.construct_access_tile %[[YV]][0, 0, 0] {{.*}} -> !ktdp.access_tile<1x8x64xindex>
// CHECK-NEXT:    ktdp.store %a, %[[YT]] : tensor<1x8x64xf16>, <1x8x64xindex>
// CHECK-NEXT:    %[[RO:.+]] = affine.apply #[[ROW_AT]] (%c0, %i)[%m]
// CHECK-NEXT:    %[[RV:.+]] = ktdp.construct_memory_view %[[RO]], sizes: [64], strides: [1] {{.*}} : memref<64xf16>
// CHECK-NEXT:    %[[RT:.+]] = ktdp.construct_access_tile %[[RV]][0]
// CHECK-NEXT:    %[[R:.+]] = ktdp.load %[[RT]] : <64xindex> -> tensor<64xf16>
// CHECK-NEXT:    %row = math.exp %[[R]] : tensor<64xf16>
// CHECK:         %[[ABOVE:.+]] = ktdp.load %{{.+}} : <3x64xindex> -> tensor<3x64xf16>
// CHECK-NEXT:    %[[NABOVE:.+]] = arith.negf %[[ABOVE]] : tensor<3x64xf16>
// CHECK-NEXT:    %[[BT:.+]] = ktdp.construct_access_tile %mv[%c0 + 4, %c0] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    %[[BELOW:.+]] = ktdp.load %[[BT]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[NBELOW:.+]] = arith.negf %[[BELOW]] : tensor<4x64xf16>
// CHECK-NEXT:    %[[PO:.+]] = affine.apply #[[ROW3]] (%c0)[%m]
// CHECK:         ktdp.store %row, %{{.+}} : tensor<64xf16>, <64xindex>
// CHECK-NEXT:    %[[AT:.+]] = ktdp.construct_access_tile %mv[%c0, %c0] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK-NEXT:    ktdp.store %[[NABOVE]], %[[AT]]
// CHECK-NEXT:    %[[BT2:.+]] = ktdp.construct_access_tile %mv[%c0 + 4, %c0] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    ktdp.store %[[NBELOW]], %[[BT2]]
// CHECK-NEXT:    %one = ktdp.load %sa : <1x1xindex> -> tensor<1x1xf16>
// CHECK-NEXT:    %init = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT:    %spread = linalg.generic {indexing_maps = [#[[ZERO]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%one : tensor<1x1xf16>) outs(%init : tensor<4x64xf16>)
// CHECK-NOT:     tensor.
// CHECK:         return

#cache = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#space = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>
func.func @paged(%cache: index, %table: index, %j: index, %head: index) {
  %c0 = arith.constant 0 : index
  %cv = ktdp.construct_memory_view %cache, sizes: [8, 16, 4, 64], strides: [4096, 256, 64, 1] {coordinate_set = #cache, memory_space = #ktdp.memory_space<global>} : memref<8x16x4x64xf16>
  %tv = ktdp.construct_memory_view %table, sizes: [1, 4], strides: [4, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<1x4xi32>
  %kt = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3)
      %cv[ind(%tv[%c0, %j + %d0]), (%d1), (%head + %d2), (%d3)] {
    variables_space_set = #space, variables_space_order = #id4
  } : memref<8x16x4x64xf16>, memref<1x4xi32> -> !ktdp.access_tile<1x16x1x64xindex>
  %k4 = ktdp.load %kt : !ktdp.access_tile<1x16x1x64xindex> -> tensor<1x16x1x64xf16>
  %k2 = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
  %e = math.exp %k2 : tensor<16x64xf16>
  return
}

// CHECK-LABEL: func.func @paged
// CHECK:         %[[T:.+]] = ktdp.construct_indirect_access_tile intermediate_variables(%d1, %d3) %cv[ind(%tv[%c0, %j]), (%d1), (%head), (%d3)] {{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK-NEXT:    %k2 = ktdp.load %[[T]] : <16x64xindex> -> tensor<16x64xf16>
// CHECK-NEXT:    %e = math.exp %k2 : tensor<16x64xf16>

#bs = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @sliced_generic(%m: index, %b: index) {
  %c0 = arith.constant 0 : index
  %mv = ktdp.construct_memory_view %m, sizes: [8, 64], strides: [64, 1] {coordinate_set = #ms, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {coordinate_set = #bs, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %ma = ktdp.construct_access_tile %mv[%c0, %c0] {access_tile_set = #ms, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ba = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #bs, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %ma : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %bias = ktdp.load %ba : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %sum = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %bias : tensor<8x64xf16>, tensor<64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %r = arith.addf %p, %q : f16
    linalg.yield %r : f16
  } -> tensor<8x64xf16>
  %part = tensor.extract_slice %sum[2, 16] [2, 32] [1, 1] : tensor<8x64xf16> to tensor<2x32xf16>
  %n = math.exp %part : tensor<2x32xf16>
  return
}

// CHECK-LABEL: func.func @sliced_generic
// CHECK:         %[[XT:.+]] = ktdp.construct_access_tile %mv[%c0 + 2, %c0 + 16] {{.*}} -> !ktdp.access_tile<2x32xindex>
// CHECK-NEXT:    %[[X:.+]] = ktdp.load %[[XT]] : <2x32xindex> -> tensor<2x32xf16>
// CHECK-NEXT:    %[[BT:.+]] = ktdp.construct_access_tile %bv[%c0 + 16] {{.*}} -> !ktdp.access_tile<32xindex>
// CHECK-NEXT:    %[[B:.+]] = ktdp.load %[[BT]] : <32xindex> -> tensor<32xf16>
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<2x32xf16>
// CHECK-NEXT:    %part = linalg.generic {{.*}} ins(%[[X]], %[[B]] : tensor<2x32xf16>, tensor<32xf16>) outs(%[[E]] : tensor<2x32xf16>)
