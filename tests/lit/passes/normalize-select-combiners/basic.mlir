// A reduction body keeping the larger of a term and the accumulator by cmpf and
// select combines with maxnumf, one keeping the smaller with minnumf: in
// linalg.reduce and linalg.generic, with the compare's operands either way round and
// unordered predicates. The compare and select are gone.

// RUN: ktc-opt %s -p normalize-select-combiners | filecheck %s

func.func @forms(%a: tensor<1x64xf16>, %i: tensor<1xf16>) -> (tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) {
  %max = linalg.reduce ins(%a : tensor<1x64xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %gt = arith.cmpf ogt, %in, %acc : f16
      %k = arith.select %gt, %in, %acc : f16
      linalg.yield %k : f16
    }
  %min = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x64xf16>) outs(%i : tensor<1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %lt = arith.cmpf olt, %acc, %in : f16
    %k = arith.select %lt, %acc, %in : f16
    linalg.yield %k : f16
  } -> tensor<1xf16>
  %max2 = linalg.reduce ins(%a : tensor<1x64xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %le = arith.cmpf ule, %in, %acc : f16
      %k = arith.select %le, %acc, %in : f16
      linalg.yield %k : f16
    }
  func.return %max, %min, %max2 : tensor<1xf16>, tensor<1xf16>, tensor<1xf16>
}

// CHECK-LABEL: func.func @forms(
// CHECK:         %max = linalg.reduce
// CHECK-NEXT:      (%in: f16, %acc: f16) {
// CHECK-NEXT:        %{{.+}} = arith.maxnumf %in, %acc : f16
// CHECK-NEXT:        linalg.yield
// CHECK:         %min = linalg.generic
// CHECK-NEXT:    ^bb0(%in: f16, %acc: f16):
// CHECK-NEXT:      %{{.+}} = arith.minnumf %in, %acc : f16
// CHECK-NEXT:      linalg.yield
// CHECK:         %max2 = linalg.reduce
// CHECK-NEXT:      (%in: f16, %acc: f16) {
// CHECK-NEXT:        %{{.+}} = arith.maxnumf %in, %acc : f16
// CHECK-NOT:     arith.select
