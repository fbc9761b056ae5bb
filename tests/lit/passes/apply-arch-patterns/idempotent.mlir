// Applying the pre_scheduling patterns twice is applying them once: what they
// produce (math and arith ops) matches none of them.

// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=pre_scheduling}' > %t.once
// RUN: ktc-opt %t.once -p 'apply-arch-patterns{point=pre_scheduling}' | diff %t.once -
// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=pre_scheduling},apply-arch-patterns{point=pre_scheduling}' | diff %t.once -
// RUN: filecheck %s < %t.once

func.func @compute(%x: tensor<8xf16>) -> tensor<8xf16> {
  %init = tensor.empty() : tensor<8xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%init : tensor<8xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %s = spyreop.sigmoid %in : f16
    %e = spyreop.exp %s : f16
    linalg.yield %e : f16
  } -> tensor<8xf16>
  func.return %y : tensor<8xf16>
}

// CHECK-LABEL: func.func @compute(
// CHECK-COUNT-2: math.exp
// CHECK-NOT:     spyreop
