// Bodies that are not a compare-and-select of the accumulator and a term are left as
// they are (a select between two terms, an equality predicate, a one-op combiner such
// as one this pass has made), and argmax bodies it does not rewrite (a strict compare
// without the index tie break, whose answer depends on the fold order; an index
// from linalg.index): a second run prints what the first did.

// RUN: ktc-opt %s -p normalize-select-combiners > %t
// RUN: ktc-opt %t -p normalize-select-combiners | diff %t -
// RUN: filecheck %s < %t

func.func @kept(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>, %i: tensor<1xf16>) -> (tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) {
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%i : tensor<1xf16>) {
  ^bb0(%u: f16, %v: f16, %acc: f16):
    %gt = arith.cmpf ogt, %u, %v : f16
    %k = arith.select %gt, %u, %v : f16
    %s = arith.addf %k, %acc : f16
    linalg.yield %s : f16
  } -> tensor<1xf16>
  %y = linalg.reduce ins(%a : tensor<1x64xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %eq = arith.cmpf oeq, %in, %acc : f16
      %k = arith.select %eq, %in, %acc : f16
      linalg.yield %k : f16
    }
  %z = linalg.reduce ins(%a : tensor<1x64xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %gt = arith.cmpf ogt, %in, %acc : f16
      %k = arith.select %gt, %in, %acc : f16
      linalg.yield %k : f16
    }
  func.return %x, %y, %z : tensor<1xf16>, tensor<1xf16>, tensor<1xf16>
}

// CHECK-LABEL: func.func @kept(
// CHECK:         arith.cmpf ogt, %u, %v
// CHECK:         arith.select
// CHECK:         arith.cmpf oeq, %in, %acc
// CHECK:         arith.select
// CHECK:         arith.maxnumf %in, %acc

// CHECK-LABEL: func.func @kept_argmax(
// CHECK:         linalg.reduce ins(%a, %j : tensor<1x64xf16>, tensor<1x64xf32>)
// CHECK:           arith.cmpf ogt
// CHECK:           arith.select
// CHECK:         linalg.generic
// CHECK:           linalg.index 1
// CHECK:           arith.select
func.func @kept_argmax(%a: tensor<1x64xf16>, %j: tensor<1x64xf32>, %v: tensor<1xf16>, %k: tensor<1xf32>) -> (tensor<1xf16>, tensor<1xf32>, tensor<1xf16>, tensor<1xf32>) {
  %r:2 = linalg.reduce ins(%a, %j : tensor<1x64xf16>, tensor<1x64xf32>) outs(%v, %k : tensor<1xf16>, tensor<1xf32>) dimensions = [1]
    (%in: f16, %i: f32, %best: f16, %where: f32) {
      %gt = arith.cmpf ogt, %in, %best : f16
      %b = arith.select %gt, %in, %best : f16
      %w = arith.select %gt, %i, %where : f32
      linalg.yield %b, %w : f16, f32
    }
  %g:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x64xf16>) outs(%v, %k : tensor<1xf16>, tensor<1xf32>) {
  ^bb0(%in: f16, %best: f16, %where: f32):
    %n = linalg.index 1 : index
    %c = arith.index_cast %n : index to i32
    %i = arith.sitofp %c : i32 to f32
    %gt = arith.cmpf ogt, %in, %best : f16
    %eq = arith.cmpf oeq, %in, %best : f16
    %lt = arith.cmpf olt, %i, %where : f32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %b = arith.select %take, %in, %best : f16
    %w = arith.select %take, %i, %where : f32
    linalg.yield %b, %w : f16, f32
  } -> tensor<1xf16>, tensor<1xf32>
  func.return %r#0, %r#1, %g#0, %g#1 : tensor<1xf16>, tensor<1xf32>, tensor<1xf16>, tensor<1xf32>
}
