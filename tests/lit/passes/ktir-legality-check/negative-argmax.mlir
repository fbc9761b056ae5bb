// A reduction into two outputs that is not an argmax or argmin body is refused at
// the reduction, and so are an argmax whose index comes from linalg.index, one of
// i32 indices and one without the index tie break; a compare and select that does not keep an extremum of the accumulator
// and a term needs the compare instruction, which the toy device does not have.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @argmax(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %v = arith.constant dense<-65504.0> : tensor<1xf16>
  %k = arith.constant dense<0.0> : tensor<1xf16>
  // expected-error@+1 {{'linalg.generic' reduces into 2 outputs; the pipeline reduces into one accumulator, or into two by an argmax or argmin body}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x64xf16>) outs(%v, %k : tensor<1xf16>, tensor<1xf16>) {
  ^bb0(%in: f16, %best: f16, %where: f16):
    %gt = arith.cmpf ogt, %in, %best : f16
    %b = arith.select %gt, %in, %best : f16
    linalg.yield %b, %where : f16, f16
  } -> tensor<1xf16>, tensor<1xf16>
  func.return
}

// -----

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_an_extremum(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %i = arith.constant dense<0.0> : tensor<1xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x64xf16>) outs(%i : tensor<1xf16>) {
  ^bb0(%u: f16, %acc: f16):
    %h = arith.constant 0.5 : f16
    // expected-error@+1 {{'arith.cmpf' needs the instruction cmp_gt, which the SFU of device @toy}}
    %gt = arith.cmpf ogt, %u, %h : f16
    %k = arith.select %gt, %u, %h : f16
    %t = arith.addf %k, %acc : f16
    linalg.yield %t : f16
  } -> tensor<1xf16>
  func.return
}

// -----

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @positions(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %v = arith.constant dense<-65504.0> : tensor<1xf16>
  %k = arith.constant dense<0.0> : tensor<1xf32>
  // expected-error@+1 {{'linalg.generic' takes its index from linalg.index; the compute engine has no lanes that count positions: pass the indices as an f32 input tensor of the reduction (exact up to 2^24)}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x64xf16>) outs(%v, %k : tensor<1xf16>, tensor<1xf32>) {
  ^bb0(%in: f16, %best: f16, %where: f32):
    %n = linalg.index 1 : index
    %c = arith.index_cast %n : index to i32
    %j = arith.sitofp %c : i32 to f32
    %gt = arith.cmpf ogt, %in, %best : f16
    %b = arith.select %gt, %in, %best : f16
    %w = arith.select %gt, %j, %where : f32
    linalg.yield %b, %w : f16, f32
  } -> tensor<1xf16>, tensor<1xf32>
  func.return
}

// -----

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @strict(%x: index, %ix: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %iv = ktdp.construct_memory_view %ix, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %it = ktdp.construct_access_tile %iv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf32> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %i = ktdp.load %it : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
  %v = arith.constant dense<-65504.0> : tensor<1xf16>
  %k = arith.constant dense<0.0> : tensor<1xf32>
  // expected-error@+1 {{'linalg.reduce' keeps the first of equal values in the order it folds; the compiled fold keeps the smallest index: break ties by the index}}
  %r:2 = linalg.reduce ins(%a, %i : tensor<1x64xf16>, tensor<1x64xf32>) outs(%v, %k : tensor<1xf16>, tensor<1xf32>) dimensions = [1]
    (%in: f16, %j: f32, %best: f16, %where: f32) {
      %gt = arith.cmpf ogt, %in, %best : f16
      %b = arith.select %gt, %in, %best : f16
      %w = arith.select %gt, %j, %where : f32
      linalg.yield %b, %w : f16, f32
    }
  func.return
}
