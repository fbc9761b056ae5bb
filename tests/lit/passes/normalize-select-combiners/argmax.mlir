// An argmax of values and f32 indices (ties broken by the smaller index), in
// linalg.reduce, becomes a maxnumf reduction, the index init masked by it, and a
// minnumf reduction of the indices where the value equals the maximum (others moved
// past the largest f32); an argmin in a linalg.generic the same with minnumf and the
// difference the other way round. A second run changes nothing.

// RUN: ktc-opt %s -p normalize-select-combiners | filecheck %s
// RUN: ktc-opt %s -p normalize-select-combiners > %t
// RUN: ktc-opt %t -p normalize-select-combiners | diff %t -

// CHECK-LABEL: func.func @argmax
// CHECK:       %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%a : tensor<1x64xf16>) outs(%v : tensor<1xf16>)
// CHECK:         arith.maxnumf
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<1xf32>
// CHECK:       %[[J0:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%v, %k, %[[M]] : tensor<1xf16>, tensor<1xf32>, tensor<1xf16>) outs(%[[E]] : tensor<1xf32>)
// CHECK:         %[[LARGEST:.*]] = arith.constant 3.40282347E+38 : f32
// CHECK:         %[[SCALE:.*]] = arith.constant 1.2676506E+30 : f32
// CHECK:         arith.extf
// CHECK:         %[[D:.*]] = arith.subf %[[MAX:.*]], %[[VALUE:.*]] : f32
// CHECK:         %[[D1:.*]] = arith.mulf %[[D]], %[[SCALE]] : f32
// CHECK:         %[[D2:.*]] = arith.mulf %[[D1]], %[[SCALE]] : f32
// CHECK:         %[[MASK:.*]] = arith.minnumf %[[D2]], %{{.*}} : f32
// CHECK:         %[[MOVED:.*]] = arith.mulf %[[MASK]], %[[LARGEST]] : f32
// CHECK:         %[[T:.*]] = arith.addf %{{.*}}, %[[MOVED]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
// CHECK:       %[[J:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%a, %i, %[[M]] : tensor<1x64xf16>, tensor<1x64xf32>, tensor<1xf16>) outs(%[[J0]] : tensor<1xf32>)
// CHECK:         arith.subf
// CHECK:         %[[TJ:.*]] = arith.addf
// CHECK-NEXT:    %[[F:.*]] = arith.minnumf %[[TJ]], %{{.*}} : f32
// CHECK-NEXT:    linalg.yield %[[F]] : f32
// CHECK-NOT:   arith.select
// CHECK:       return %[[M]], %[[J]]
func.func @argmax(%a: tensor<1x64xf16>, %i: tensor<1x64xf32>, %v: tensor<1xf16>, %k: tensor<1xf32>) -> (tensor<1xf16>, tensor<1xf32>) {
  %r:2 = linalg.reduce ins(%a, %i : tensor<1x64xf16>, tensor<1x64xf32>) outs(%v, %k : tensor<1xf16>, tensor<1xf32>) dimensions = [1]
    (%in: f16, %j: f32, %best: f16, %where: f32) {
      %gt = arith.cmpf ogt, %in, %best : f16
      %eq = arith.cmpf oeq, %in, %best : f16
      %lt = arith.cmpf olt, %j, %where : f32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1
      %b = arith.select %take, %in, %best : f16
      %w = arith.select %take, %j, %where : f32
      linalg.yield %b, %w : f16, f32
    }
  func.return %r#0, %r#1 : tensor<1xf16>, tensor<1xf32>
}

// CHECK-LABEL: func.func @argmin
// CHECK:       linalg.generic {{.*}}ins(%a : tensor<64x3xf32>) outs(%v : tensor<3xf32>)
// CHECK:         arith.minnumf
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel"]}
// CHECK-NOT:     arith.extf
// CHECK:         arith.subf %[[VALUE:.*]], %[[MIN:.*]] : f32
// CHECK:       linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]} ins(%a, %i, %{{.*}} : tensor<64x3xf32>, tensor<64x3xf32>, tensor<3xf32>)
// CHECK-NOT:   arith.select
func.func @argmin(%a: tensor<64x3xf32>, %i: tensor<64x3xf32>, %v: tensor<3xf32>, %k: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%a, %i : tensor<64x3xf32>, tensor<64x3xf32>) outs(%v, %k : tensor<3xf32>, tensor<3xf32>) {
  ^bb0(%in: f32, %j: f32, %best: f32, %where: f32):
    %gt = arith.cmpf ogt, %best, %in : f32
    %eq = arith.cmpf oeq, %best, %in : f32
    %first = arith.cmpf ogt, %where, %j : f32
    %tie = arith.andi %first, %eq : i1
    %take = arith.ori %tie, %gt : i1
    %b = arith.select %take, %in, %best : f32
    %w = arith.select %take, %j, %where : f32
    linalg.yield %b, %w : f32, f32
  } -> tensor<3xf32>, tensor<3xf32>
  func.return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// An inter_tile_reduce combiner of (value, index) partials keeping the larger value,
// ties broken by the smaller index, becomes maxnumf of the two values and minnumf of
// the two indices, each masked by that maximum, on tensors (splat constants); its
// compares and selects are gone.

// CHECK-LABEL: func.func @combiner
// CHECK:         ^bb0(%[[LV:.*]]: tensor<2xf16>, %[[LI:.*]]: tensor<2xf32>, %[[RV:.*]]: tensor<2xf16>, %[[RI:.*]]: tensor<2xf32>):
// CHECK-NEXT:      %[[M:.*]] = arith.maxnumf %[[LV]], %[[RV]] : tensor<2xf16>
// CHECK-NEXT:      arith.constant dense<-3.40282347E+38> : tensor<2xf32>
// CHECK:           arith.extf %[[LV]] : tensor<2xf16> to tensor<2xf32>
// CHECK:           %[[A:.*]] = arith.addf %[[LI]], %{{.*}} : tensor<2xf32>
// CHECK:           arith.extf %[[RV]] : tensor<2xf16> to tensor<2xf32>
// CHECK:           %[[B:.*]] = arith.addf %[[RI]], %{{.*}} : tensor<2xf32>
// CHECK-NEXT:      %[[I:.*]] = arith.minnumf %[[A]], %[[B]] : tensor<2xf32>
// CHECK-NEXT:      ktdp.yield_reduced %[[M]], %[[I]] : tensor<2xf16>, tensor<2xf32>
// CHECK-NOT:       arith.select
#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @combiner(%v: tensor<2xf16>, %i: tensor<2xf32>) -> (tensor<2xf16>, tensor<2xf32>) attributes {grid = [2]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<2xf16>, tensor<2xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v, %i : tensor<2xf16>, tensor<2xf32>
  }
  %m, %k = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity() : !ktdp.tile_future<(tensor<2xf16>, tensor<2xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<2xf16>, tensor<2xf32> {
  ^bb0(%lv: tensor<2xf16>, %li: tensor<2xf32>, %rv: tensor<2xf16>, %ri: tensor<2xf32>):
    %larger = arith.cmpf ogt, %rv, %lv : tensor<2xf16>
    %equal = arith.cmpf oeq, %rv, %lv : tensor<2xf16>
    %before = arith.cmpf olt, %ri, %li : tensor<2xf32>
    %tie = arith.andi %equal, %before : tensor<2xi1>
    %take = arith.ori %larger, %tie : tensor<2xi1>
    %nv = arith.select %take, %rv, %lv : tensor<2xi1>, tensor<2xf16>
    %ni = arith.select %take, %ri, %li : tensor<2xi1>, tensor<2xf32>
    ktdp.yield_reduced %nv, %ni : tensor<2xf16>, tensor<2xf32>
  }
  func.return %m, %k : tensor<2xf16>, tensor<2xf32>
}
