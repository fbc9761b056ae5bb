// At pre_mapping each device lowers the spyreop intrinsics it has. Spyre maps every
// float intrinsic onto an SFU instruction (ktdf_arch.instruction; softplus's beta
// and threshold become ktdf_arch.parameters, exx2 and its fused form one
// instruction per result component, compare one per predicate) and decomposes the
// integer and address intrinsics into arith on i32/i64, in both forms of
// idx32toaddr. line4 has no sigmoid or silu instruction: it decomposes them, maps
// exp, and leaves gelu and the rest alone (ktir-legality-check refuses them); toy
// maps the unary ones and realdiv only. Applying the patterns again changes nothing.

// RUN: ktc-opt %s --arch spyre -p 'apply-arch-patterns{point=pre_mapping}' | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %s --arch spyre -p 'apply-arch-patterns{point=pre_mapping}' > %t.once
// RUN: ktc-opt %t.once -p 'apply-arch-patterns{point=pre_mapping}' | diff %t.once -
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p 'apply-arch-patterns{point=pre_mapping}' | filecheck %s --check-prefix=LINE4
// RUN: ktc-opt %s --arch toy -p 'apply-arch-patterns{point=pre_mapping}' | filecheck %s --check-prefix=TOY

#identity = affine_map<(d0) -> (d0)>
func.func @floats(%x: tensor<64xf16>, %y: tensor<64xf16>) -> tensor<64xf16> {
  %init = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#identity, #identity, #identity], iterator_types = ["parallel"]} ins(%x, %y : tensor<64xf16>, tensor<64xf16>) outs(%init : tensor<64xf16>) {
  ^bb0(%a: f16, %b: f16, %unused: f16):
    %sig = spyreop.sigmoid %a : f16
    %exp = spyreop.exp %sig : f16
    %gelu = spyreop.gelu %exp : f16
    %soft = spyreop.softplus %gelu beta 5.000000e-01 threshold 2.000000e+01 : f16
    %quot = spyreop.realdiv %soft, %b : f16
    %mean, %squares = spyreop.exx2 %quot : f16
    %pair = spyreop.exx2_fused %mean : f16 -> !spyreop.fp16_fused
    %scale = spyreop.layernormscale_fused %pair : !spyreop.fp16_fused -> f16
    %norm = spyreop.layernormnorm %a squares %mean scale %scale weight %b bias %squares : f16
    %less = spyreop.compare <lesserthan> %norm, %b : f16
    %pick = spyreop.select %less, %norm, %a : f16
    linalg.yield %pick : f16
  } -> tensor<64xf16>
  func.return %r : tensor<64xf16>
}

// SPYRE-LABEL: func.func @floats(
// SPYRE:         %[[SIG:.+]] = spyreop.sigmoid %{{.+}} {ktdf_arch.instruction = "sigmoid"} : f16
// SPYRE-NEXT:    %[[EXP:.+]] = spyreop.exp %[[SIG]] {ktdf_arch.instruction = "exp"} : f16
// SPYRE-NEXT:    %[[GELU:.+]] = spyreop.gelu %[[EXP]] {ktdf_arch.instruction = "gelu"} : f16
// SPYRE-NEXT:    %[[SOFT:.+]] = spyreop.softplus %[[GELU]] beta 5.000000e-01 threshold 2.000000e+01 {ktdf_arch.instruction = "softplus", ktdf_arch.parameters = [5.000000e-01 : f32, 2.000000e+01 : f32]} : f16
// SPYRE-NEXT:    %[[QUOT:.+]] = spyreop.realdiv %[[SOFT]], %{{.+}} {ktdf_arch.instruction = "div"} : f16
// SPYRE-NEXT:    %{{.+}}, %{{.+}} = spyreop.exx2 %[[QUOT]] {ktdf_arch.instruction = ["exx2_mean", "exx2_squares"]} : f16
// SPYRE-NEXT:    %{{.+}} = spyreop.exx2_fused %{{.+}} {ktdf_arch.instruction = ["exx2_mean", "exx2_squares"]} : f16 -> !spyreop.fp16_fused
// SPYRE-NEXT:    %{{.+}} = spyreop.layernormscale_fused %{{.+}} {ktdf_arch.instruction = "layernormscale"} : !spyreop.fp16_fused -> f16
// SPYRE-NEXT:    %{{.+}} = spyreop.layernormnorm {{.+}} {ktdf_arch.instruction = "layernormnorm"} : f16
// SPYRE-NEXT:    %{{.+}} = spyreop.compare <lesserthan> %{{.+}}, %{{.+}} {ktdf_arch.instruction = "cmp_lt"} : f16
// SPYRE-NEXT:    %{{.+}} = spyreop.select %{{.+}}, %{{.+}}, %{{.+}} {ktdf_arch.instruction = "select"} : f16

// LINE4-LABEL: func.func @floats(
// LINE4:         ^bb0(%[[A:.+]]: f16, %{{.+}}: f16, %{{.+}}: f16):
// LINE4-NEXT:      %[[ONE:.+]] = arith.constant 1.000000e+00 : f16
// LINE4-NEXT:      %[[NEG:.+]] = arith.negf %[[A]] : f16
// LINE4-NEXT:      %[[E:.+]] = math.exp %[[NEG]] : f16
// LINE4-NEXT:      %[[SUM:.+]] = arith.addf %[[ONE]], %[[E]] : f16
// LINE4-NEXT:      %[[SIG:.+]] = arith.divf %[[ONE]], %[[SUM]] : f16
// LINE4-NEXT:      %[[EXP:.+]] = spyreop.exp %[[SIG]] {ktdf_arch.instruction = "exp"} : f16
// LINE4-NEXT:      %{{.+}} = spyreop.gelu %[[EXP]] : f16
// LINE4-NEXT:      %{{.+}} = spyreop.softplus %{{.+}} beta 5.000000e-01 threshold 2.000000e+01 : f16
// LINE4-NEXT:      %{{.+}} = spyreop.realdiv %{{.+}}, %{{.+}} {ktdf_arch.instruction = "div"} : f16
// LINE4-NEXT:      %{{.+}}, %{{.+}} = spyreop.exx2 %{{.+}} : f16

// TOY-LABEL: func.func @floats(
// TOY:         spyreop.sigmoid %{{.+}} {ktdf_arch.instruction = "sigmoid"} : f16
// TOY:         spyreop.gelu %{{.+}} {ktdf_arch.instruction = "gelu"} : f16
// TOY-NEXT:    spyreop.softplus %{{.+}} beta 5.000000e-01 threshold 2.000000e+01 : f16
// TOY-NEXT:    spyreop.realdiv %{{.+}}, %{{.+}} {ktdf_arch.instruction = "div"} : f16
// TOY-NEXT:    spyreop.exx2 %{{.+}} : f16

func.func @integers(%t: i32, %u: i64, %base: i32, %stride: i32) -> (i32, i32, i32, i64) {
  %c3 = arith.constant 3 : i32
  %sum = spyreop.addi32toi32 %t, %c3
  %product = spyreop.muli32toi32 %sum, %t
  %address = spyreop.idx32toaddr %product base %base stride %stride
  %fixed = spyreop.idx32toaddr %t base 0x100 stride 4
  %wide = spyreop.addi64toi64 %u, %u
  func.return %address, %fixed, %product, %wide : i32, i32, i32, i64
}

// SPYRE-LABEL: func.func @integers(
// SPYRE-SAME:      %[[T:[^:]+]]: i32, %[[U:[^:]+]]: i64, %[[BASE:[^:]+]]: i32, %[[STRIDE:[^:]+]]: i32)
// SPYRE-NEXT:    %[[C3:.+]] = arith.constant 3 : i32
// SPYRE-NEXT:    %[[SUM:.+]] = arith.addi %[[T]], %[[C3]] : i32
// SPYRE-NEXT:    %[[PRODUCT:.+]] = arith.muli %[[SUM]], %[[T]] : i32
// SPYRE-NEXT:    %[[SCALED:.+]] = arith.muli %[[STRIDE]], %[[PRODUCT]] : i32
// SPYRE-NEXT:    %[[ADDRESS:.+]] = arith.addi %[[BASE]], %[[SCALED]] : i32
// SPYRE-NEXT:    %[[B:.+]] = arith.constant 256 : i32
// SPYRE-NEXT:    %[[S:.+]] = arith.constant 4 : i32
// SPYRE-NEXT:    %[[SCALED2:.+]] = arith.muli %[[S]], %[[T]] : i32
// SPYRE-NEXT:    %[[FIXED:.+]] = arith.addi %[[B]], %[[SCALED2]] : i32
// SPYRE-NEXT:    %[[WIDE:.+]] = arith.addi %[[U]], %[[U]] : i64
// SPYRE-NEXT:    {{(func.)?}}return %[[ADDRESS]], %[[FIXED]], %[[PRODUCT]], %[[WIDE]] : i32, i32, i32, i64
