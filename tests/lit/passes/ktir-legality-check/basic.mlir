// Kernels in the pipeline's scope pass the legality check unchanged, on every
// device: views and access tiles on global and ct_local memory, named and generic
// linalg compute, broadcasts and reductions, splat constants, scalar arithmetic,
// loops with and without iter_args, scf.if, and a kernel without a grid.

// RUN: ktc-opt %s --split-input-file --arch toy > %t.before
// RUN: ktc-opt %s --split-input-file --arch toy -p ktir-legality-check > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after
// RUN: ktc-opt %s --split-input-file --arch spyre -p ktir-legality-check | filecheck %s
// RUN: ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @named_add(%a: index, %b: index, %c: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c3 : index
  %a_view = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %b_view = ktdp.construct_memory_view %b, sizes: [96, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<96x64xf16>
  %c_view = ktdp.construct_memory_view %c, sizes: [96, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %a_tile = ktdp.construct_access_tile %a_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %b_tile = ktdp.construct_access_tile %b_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %c_tile = ktdp.construct_access_tile %c_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %x = ktdp.load %a_tile : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %y = ktdp.load %b_tile : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %init = tensor.empty() : tensor<3x64xf16>
  %sum = linalg.add ins(%x, %y : tensor<3x64xf16>, tensor<3x64xf16>) outs(%init : tensor<3x64xf16>) -> tensor<3x64xf16>
  %max = linalg.max ins(%sum, %y : tensor<3x64xf16>, tensor<3x64xf16>) outs(%init : tensor<3x64xf16>) -> tensor<3x64xf16>
  ktdp.store %max, %c_tile : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  return
}

// CHECK-LABEL: func.func @named_add(
// CHECK:         linalg.add ins(
// CHECK:         linalg.max ins(
// CHECK:         ktdp.store

// -----

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @reductions(%x: index, %y: index, %n: i32, %eps: f16) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %minus_inf = arith.constant 0xFC00 : f16
  %n_index = arith.index_cast %n : i32 to index
  %n_f16 = arith.sitofp %n : i32 to f16
  %inverse = arith.divf %eps, %n_f16 : f16
  %id = ktdp.get_compute_tile_id : index
  %first = arith.muli %id, %c4 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %y_view = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%partial = %zero) -> tensor<1x64xf16> {
    %r = arith.addi %first, %i : index
    %x_tile = ktdp.construct_access_tile %x_view[%r, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %next = arith.addf %partial, %v : tensor<1x64xf16>
    scf.yield %next : tensor<1x64xf16>
  }
  %scalar = tensor.empty() : tensor<1xf16>
  %max_init = linalg.fill ins(%minus_inf : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%acc : tensor<1x64xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %max_scalar = tensor.extract %max[%c0] : tensor<1xf16>
  %shift = tensor.splat %max_scalar : tensor<1x64xf16>
  %row_init = tensor.empty() : tensor<1x64xf16>
  %scale = tensor.splat %inverse : tensor<1xf16>
  %scale_row = linalg.broadcast ins(%scale : tensor<1xf16>) outs(%row_init : tensor<1x64xf16>) dimensions = [1]
  %centered = arith.subf %acc, %shift : tensor<1x64xf16>
  %e = math.exp %centered : tensor<1x64xf16>
  %root = math.rsqrt %e : tensor<1x64xf16>
  %out = arith.mulf %root, %scale_row : tensor<1x64xf16>
  %big = arith.cmpi sgt, %n_index, %c4 : index
  scf.if %big {
    %y_tile = ktdp.construct_access_tile %y_view[%first, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %out, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}

// CHECK-LABEL: func.func @reductions(
// CHECK:         scf.for {{.*}} iter_args(
// CHECK:         linalg.reduce { arith.maxnumf }
// CHECK:         linalg.broadcast
// CHECK:         scf.if

// -----

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#column = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#identity1 = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
#first_column = affine_map<(d0, d1) -> (d0, 0)>
func.func @generic_reduction(%y: index) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %x_view = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<ct_local>} : memref<8x64xf32>
  %y_view = ktdp.construct_memory_view %c0, sizes: [8], strides: [1] {coordinate_set = #column, memory_space = #ktdp.spyre_memory_space<LX>} : memref<8xf32>
  %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #identity} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #column, access_tile_order = #identity1} : memref<8xf32> -> !ktdp.access_tile<8xindex>
  %v = ktdp.load %x_tile : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %sums = linalg.generic {indexing_maps = [#identity, #first_column, #per_row], iterator_types = ["parallel", "reduction"]} ins(%v, %v : tensor<8x64xf32>, tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%value: f32, %first: f32, %acc: f32):
    %half = arith.constant 5.000000e-01 : f32
    %shifted = arith.subf %value, %first : f32
    %scaled = math.fma %shifted, %half, %acc : f32
    linalg.yield %scaled : f32
  } -> tensor<8xf32>
  ktdp.store %sums, %y_tile : tensor<8xf32>, !ktdp.access_tile<8xindex>
  return
}

// CHECK-LABEL: func.func @generic_reduction(
// CHECK:         #ktdp.memory_space<ct_local>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         math.fma

// -----

// Conversions between float types on tensors, as a product widened into f32 and
// rounded once to f16 writes them (and as MLIR's matmul of f16 into f32 widens).
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @conversions(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %y_view = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #identity} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #block, access_tile_order = #identity} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %x_tile : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %wide = arith.extf %v : tensor<8x64xf16> to tensor<8x64xf32>
  %sum = arith.addf %wide, %wide : tensor<8x64xf32>
  %narrow = arith.truncf %sum : tensor<8x64xf32> to tensor<8x64xf16>
  ktdp.store %narrow, %y_tile : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}

// CHECK-LABEL: func.func @conversions(
// CHECK:         arith.extf %{{.*}} : tensor<8x64xf16> to tensor<8x64xf32>
// CHECK:         arith.truncf %{{.*}} : tensor<8x64xf32> to tensor<8x64xf16>
