// IBM's native functions inside device patterns, at post_lowering: one pattern
// maps every gelu to the SFU with the rewrite ktdf_arch.map_to; another, guarded
// by the constraint ktdf_arch.mapped_to, then gives the mapped gelu the
// "estimate" feature with ktdf_arch.set_feature; a third maps to the SFU the exp
// that has that feature (constraint ktdf_arch.has_feature), and not the other.

// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=post_lowering}' | filecheck %s

func.func @gelu(%x: tensor<8xf16>) -> tensor<8xf16> {
  %init = tensor.empty() : tensor<8xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%init : tensor<8xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %g = spyreop.gelu %in : f16
    %e = spyreop.exp %g {ktdf_arch.features = {estimate}} : f16
    %f = spyreop.exp %e : f16
    linalg.yield %f : f16
  } -> tensor<8xf16>
  func.return %y : tensor<8xf16>
}

// CHECK-LABEL: func.func @gelu(
// CHECK:         ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:      %[[G:.+]] = spyreop.gelu %[[IN]] {ktdf_arch.features = {estimate}, ktdf_arch.maps_to = "SFU"} : f16
// CHECK-NEXT:      %[[E:.+]] = spyreop.exp %[[G]] {ktdf_arch.features = {estimate}, ktdf_arch.maps_to = "SFU"} : f16
// CHECK-NEXT:      %{{.+}} = spyreop.exp %[[E]] : f16
