// On spyre, whose SFU has the compare and select instructions, compares and selects
// pass unchanged: on tensors (a mask read by two selects, a compare with a row's
// threshold broadcast over it, an unordered predicate), in a generic's body, and in a
// reduction's body that does not keep an extremum (a sum of the terms above 0.5).

// RUN: ktc-opt %s --split-input-file --arch spyre > %t.before
// RUN: ktc-opt %s --split-input-file --arch spyre -p ktir-legality-check > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

// CHECK-LABEL: func.func @tensors
// CHECK:         %m = arith.cmpf ule, %a, %t_row : tensor<1x64xf16>
// CHECK:         arith.select %m, %a, %zero : tensor<1x64xi1>, tensor<1x64xf16>
// CHECK:         arith.select %m, %zero, %a : tensor<1x64xi1>, tensor<1x64xf16>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @tensors(%x: index, %t: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tv = ktdp.construct_memory_view %t, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tt = ktdp.construct_access_tile %tv[%c0] {access_tile_set = #one, access_tile_order = #id1} : memref<1xf16> -> !ktdp.access_tile<1xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %b = ktdp.load %tt : !ktdp.access_tile<1xindex> -> tensor<1xf16>
  %full = tensor.empty() : tensor<1x64xf16>
  %t_row = linalg.broadcast ins(%b : tensor<1xf16>) outs(%full : tensor<1x64xf16>) dimensions = [1]
  %m = arith.cmpf ule, %a, %t_row : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %low = arith.select %m, %a, %zero : tensor<1x64xi1>, tensor<1x64xf16>
  %high = arith.select %m, %zero, %a : tensor<1x64xi1>, tensor<1x64xf16>
  ktdp.store %low, %xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  ktdp.store %high, %xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @bodies
// CHECK:         arith.cmpf ogt, %in, %zero : f16
// CHECK:         arith.cmpf ogt, %u, %h : f16
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @bodies(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %empty = tensor.empty() : tensor<1x64xf16>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%empty : tensor<1x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %zero = arith.constant 0.0 : f16
    %gt = arith.cmpf ogt, %in, %zero : f16
    %r = arith.select %gt, %in, %zero : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %i = arith.constant dense<0.0> : tensor<1xf16>
  %s = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%relu : tensor<1x64xf16>) outs(%i : tensor<1xf16>) {
  ^bb0(%u: f16, %acc: f16):
    %h = arith.constant 0.5 : f16
    %zero = arith.constant 0.0 : f16
    %gt = arith.cmpf ogt, %u, %h : f16
    %k = arith.select %gt, %u, %zero : f16
    %t = arith.addf %k, %acc : f16
    linalg.yield %t : f16
  } -> tensor<1xf16>
  return
}
