// Every spyreop intrinsic prints in the current generation's assembly, survives a
// trip through its generic form, and the older spellings of idx32toaddr and
// layernormscale still parse (the older idx32toaddr keeps its constants).

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: @integers
func.func @integers(%a: i32, %b: i32, %l: i64) {
  // CHECK-NEXT: %{{.*}} = spyreop.addi32toi32 %{{.*}}, %{{.*}}{{$}}
  %0 = spyreop.addi32toi32 %a, %b
  // CHECK-NEXT: %{{.*}} = spyreop.addi64toi64 %{{.*}}, %{{.*}}{{$}}
  %1 = spyreop.addi64toi64 %l, %l
  // CHECK-NEXT: %{{.*}} = spyreop.muli32toi32 %{{.*}}, %{{.*}}{{$}}
  %2 = spyreop.muli32toi32 %a, %b
  // CHECK-NEXT: %{{.*}} = spyreop.idx32toaddr %{{.*}} base %{{.*}} stride %{{.*}}{{$}}
  %3 = spyreop.idx32toaddr %a base %b stride %b
  // CHECK-NEXT: %{{.*}} = spyreop.idx32toaddr %{{.*}} base 0xDEADBEEF stride 4{{$}}
  %4 = spyreop.idx32toaddr %a base 0xDEADBEEF stride 4
  // CHECK-NEXT: %{{.*}} = spyreop.idx32toaddr %{{.*}} base 0x1000 stride 2{{$}}
  %5 = spyreop.idx32toaddr %a base 4096 stride 2
  func.return
}
// GENERIC-LABEL: sym_name = "integers"
// GENERIC:       "spyreop.addi32toi32"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC:       "spyreop.addi64toi64"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// GENERIC:       "spyreop.idx32toaddr"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1>} : (i32, i32, i32) -> i32
// GENERIC-NEXT:  "spyreop.idx32toaddr"(%{{.*}}) <{base_address = -559038737 : i32, stride = 4 : i32}> {operandSegmentSizes = array<i32: 1, 0, 0>} : (i32) -> i32

// CHECK-LABEL: @unary
func.func @unary(%h: f16, %d: !spyreop.df16, %f: f32) {
  // CHECK-NEXT: spyreop.exp %{{.*}} : f16
  %0 = spyreop.exp %h : f16
  // CHECK-NEXT: spyreop.exp %{{.*}} : !spyreop.df16
  %1 = spyreop.exp %d : !spyreop.df16
  // CHECK-NEXT: spyreop.exp %{{.*}} : f32
  %2 = spyreop.exp %f : f32
  // CHECK-NEXT: spyreop.gelu %{{.*}} : !spyreop.df16
  %3 = spyreop.gelu %d : !spyreop.df16
  // CHECK-NEXT: spyreop.gelu %{{.*}} : f16
  %4 = spyreop.gelu %h : f16
  // CHECK-NEXT: spyreop.sigmoid %{{.*}} : f32
  %5 = spyreop.sigmoid %f : f32
  // CHECK-NEXT: spyreop.silu %{{.*}} : !spyreop.df16
  %6 = spyreop.silu %d : !spyreop.df16
  // CHECK-NEXT: spyreop.softplus %{{.*}} beta 2.000000e-01 threshold 1.000000e-01 : !spyreop.df16
  %7 = spyreop.softplus %d beta 0.2 threshold 0.1 : !spyreop.df16
  // CHECK-NEXT: spyreop.softplus %{{.*}} beta -1.000000e+00 threshold 2.000000e+01 : f16
  %8 = spyreop.softplus %h beta -1.0 threshold 20.0 : f16
  // CHECK-NEXT: spyreop.sqrt %{{.*}} : f32
  %9 = spyreop.sqrt %f : f32
  // CHECK-NEXT: spyreop.rsqrt %{{.*}} : !spyreop.df16
  %10 = spyreop.rsqrt %d : !spyreop.df16
  // CHECK-NEXT: spyreop.reciprocal %{{.*}} : f16
  %11 = spyreop.reciprocal %h : f16
  func.return
}
// GENERIC-LABEL: sym_name = "unary"
// GENERIC:       "spyreop.softplus"(%{{.*}}) <{beta = 2.000000e-01 : f32, threshold = 1.000000e-01 : f32}> : (!spyreop.df16) -> !spyreop.df16

// CHECK-LABEL: @binary_and_more
func.func @binary_and_more(%a: !spyreop.df16, %b: !spyreop.df16, %f: f32) {
  // CHECK-NEXT: spyreop.realdiv %{{.*}}, %{{.*}} : !spyreop.df16
  %0 = spyreop.realdiv %a, %b : !spyreop.df16
  // CHECK-NEXT: spyreop.realdiv %{{.*}}, %{{.*}} : f32
  %1 = spyreop.realdiv %f, %f : f32
  // CHECK-NEXT: spyreop.select %{{.*}}, %{{.*}}, %{{.*}} : !spyreop.df16
  %2 = spyreop.select %a, %a, %b : !spyreop.df16
  // CHECK-NEXT: spyreop.compare <equal> %{{.*}}, %{{.*}} : !spyreop.df16
  %3 = spyreop.compare <equal> %a, %b : !spyreop.df16
  // CHECK-NEXT: spyreop.compare <notequal> %{{.*}}, %{{.*}} : f32
  %4 = spyreop.compare <notequal> %f, %f : f32
  // CHECK-NEXT: spyreop.compare <greaterthan>
  %5 = spyreop.compare <greaterthan> %a, %b : !spyreop.df16
  // CHECK-NEXT: spyreop.compare <greaterequal>
  %6 = spyreop.compare <greaterequal> %a, %b : !spyreop.df16
  // CHECK-NEXT: spyreop.compare <lesserthan>
  %7 = spyreop.compare <lesserthan> %a, %b : !spyreop.df16
  // CHECK-NEXT: spyreop.compare <lesserequal>
  %8 = spyreop.compare <lesserequal> %a, %b : !spyreop.df16
  func.return
}
// GENERIC-LABEL: sym_name = "binary_and_more"
// GENERIC:       "spyreop.compare"(%{{.*}}, %{{.*}}) <{predicate = #spyreop.compare_predicate<equal>}> : (!spyreop.df16, !spyreop.df16) -> !spyreop.df16

// CHECK-LABEL: @layernorm
func.func @layernorm(%x: !spyreop.df16, %w: !spyreop.df16, %b: !spyreop.df16) {
  // Real MLIR names the two results %0#0 and %0#1, so match them loosely.
  // CHECK-NEXT: {{.+}} = spyreop.exx2 %{{.*}} : !spyreop.df16
  %m, %sq = spyreop.exx2 %x : !spyreop.df16
  // CHECK-NEXT: %[[SC:[^ ]+]] = spyreop.layernormscale %{{.*}} squares %{{.*}} : !spyreop.df16
  %sc = spyreop.layernormscale %m squares %sq : !spyreop.df16
  // CHECK-NEXT: spyreop.layernormnorm %{{.*}} squares %{{.*}} scale %[[SC]] weight %{{.*}} bias %{{.*}} : !spyreop.df16
  %n = spyreop.layernormnorm %x squares %sq scale %sc weight %w bias %b : !spyreop.df16
  // CHECK-NEXT: spyreop.layernormscale %{{[^ ]+}} : !spyreop.df16
  %old = spyreop.layernormscale %m : !spyreop.df16
  func.return
}
// GENERIC-LABEL: sym_name = "layernorm"
// GENERIC:       "spyreop.exx2"(%{{.*}}) : (!spyreop.df16) -> (!spyreop.df16, !spyreop.df16)
// GENERIC:       "spyreop.layernormscale"(%{{.*}}, %{{.*}}) : (!spyreop.df16, !spyreop.df16) -> !spyreop.df16
// GENERIC:       "spyreop.layernormnorm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!spyreop.df16, !spyreop.df16, !spyreop.df16, !spyreop.df16, !spyreop.df16) -> !spyreop.df16
// GENERIC:       "spyreop.layernormscale"(%{{.*}}) : (!spyreop.df16) -> !spyreop.df16

// CHECK-LABEL: @fused
func.func @fused(%h: f16, %d: !spyreop.df16, %f: f32) {
  // CHECK-NEXT: spyreop.exx2_fused %{{.*}} : f16 -> !spyreop.fp16_fused
  %0 = spyreop.exx2_fused %h : f16 -> !spyreop.fp16_fused
  // CHECK-NEXT: spyreop.exx2_fused %{{.*}} : !spyreop.df16 -> !spyreop.df16_fused
  %1 = spyreop.exx2_fused %d : !spyreop.df16 -> !spyreop.df16_fused
  // CHECK-NEXT: spyreop.exx2_fused %{{.*}} : f32 -> !spyreop.fp32_fused
  %2 = spyreop.exx2_fused %f : f32 -> !spyreop.fp32_fused
  // CHECK-NEXT: spyreop.layernormscale_fused %{{.*}} : !spyreop.fp16_fused -> f16
  %3 = spyreop.layernormscale_fused %0 : !spyreop.fp16_fused -> f16
  // CHECK-NEXT: spyreop.layernormscale_fused %{{.*}} : !spyreop.df16_fused -> !spyreop.df16
  %4 = spyreop.layernormscale_fused %1 : !spyreop.df16_fused -> !spyreop.df16
  // CHECK-NEXT: spyreop.layernormscale_fused %{{.*}} : !spyreop.fp32_fused -> f32
  %5 = spyreop.layernormscale_fused %2 : !spyreop.fp32_fused -> f32
  func.return
}

// CHECK-LABEL: @slices
func.func @slices(%t: tensor<64xf16>, %d: tensor<4x64x!spyreop.df16>) {
  // CHECK-NEXT: spyreop.slice_reduction %{{.*}} {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  // CHECK-NEXT: spyreop.slice_reduction %{{.*}} {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<4x64x!spyreop.df16> -> tensor<4x64x!spyreop.df16>
  %1 = spyreop.slice_reduction %d {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<4x64x!spyreop.df16> -> tensor<4x64x!spyreop.df16>
  // CHECK-NEXT: #spyreop.reduction_kind<sub>
  %2 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<sub>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  // CHECK-NEXT: #spyreop.reduction_kind<max>
  %3 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<max>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  // CHECK-NEXT: #spyreop.reduction_kind<min>
  %4 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<min>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  // CHECK-NEXT: #spyreop.reduction_kind<mul>
  %5 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<mul>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  func.return
}
// GENERIC-LABEL: sym_name = "slices"
// GENERIC:       "spyreop.slice_reduction"(%{{.*}}) <{reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>}> : (tensor<64xf16>) -> tensor<64xf16>

// The intrinsics sit in linalg.generic bodies, as KTIR kernels use them.
// CHECK-LABEL: @in_generic
func.func @in_generic(%x: tensor<64x!spyreop.df16>) -> tensor<64x!spyreop.df16> {
  %e = tensor.empty() : tensor<64x!spyreop.df16>
  // CHECK: ^{{.*}}(%[[IN:[^ :]+]]: !spyreop.df16, %{{.*}}: !spyreop.df16):
  // CHECK-NEXT: %[[G:[^ ]+]] = spyreop.gelu %[[IN]] : !spyreop.df16
  // CHECK-NEXT: linalg.yield %[[G]] : !spyreop.df16
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64x!spyreop.df16>) outs(%e : tensor<64x!spyreop.df16>) {
  ^bb0(%in: !spyreop.df16, %out: !spyreop.df16):
    %g = spyreop.gelu %in : !spyreop.df16
    linalg.yield %g : !spyreop.df16
  } -> tensor<64x!spyreop.df16>
  func.return %r : tensor<64x!spyreop.df16>
}
