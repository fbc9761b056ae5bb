// Bodies that are not a compare-and-select of the accumulator and a term are left as
// they are (a select between two terms, an equality predicate, a one-op combiner such
// as one this pass has made): a second run prints what the first did.

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
