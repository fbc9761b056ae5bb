// Only the patterns of the point asked for run: at pre_mapping the device turns
// sqrt into math.sqrt and leaves exp and sigmoid (its pre_scheduling patterns)
// alone; at post_scheduling, where the device has no pattern, nothing changes.

// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=pre_mapping}' | filecheck %s
// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir > %t.input
// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=post_scheduling}' | diff %t.input -

func.func @compute(%x: tensor<8xf16>) -> tensor<8xf16> {
  %init = tensor.empty() : tensor<8xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%init : tensor<8xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %s = spyreop.sigmoid %in : f16
    %e = spyreop.exp %s : f16
    %r = spyreop.sqrt %e : f16
    linalg.yield %r : f16
  } -> tensor<8xf16>
  func.return %y : tensor<8xf16>
}

// CHECK-LABEL: func.func @compute(
// CHECK:         ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:      %[[S:.+]] = spyreop.sigmoid %[[IN]] : f16
// CHECK-NEXT:      %[[E:.+]] = spyreop.exp %[[S]] : f16
// CHECK-NEXT:      %[[R:.+]] = math.sqrt %[[E]] : f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
