// Each spyreop constraint rejects IR that breaks it, with a message that names the
// rule: element types per intrinsic, same-type operands, the fused-type mapping,
// softplus's non-zero beta, idx32toaddr's two forms, and slice_reduction's enums.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: f32) {
  // expected-error@+1 {{operand #0 must be f16 or !spyreop.df16, but got 'f32'}}
  %0 = spyreop.gelu %x : f32
  func.return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{operand #0 must be f16 or !spyreop.df16, but got 'f32'}}
  %0 = spyreop.softplus %x beta 1.0 threshold 20.0 : f32
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{attribute 'beta' failed to satisfy constraint: 32-bit float attribute which is non-zero}}
  %0 = spyreop.softplus %x beta 0.0 threshold 20.0 : f16
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{attribute 'beta' failed to satisfy constraint: 32-bit float attribute which is non-zero}}
  %0 = spyreop.softplus %x beta -0.0 threshold 20.0 : f16
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{Expected 'threshold'}}
  %0 = spyreop.softplus %x beta 1.0 : f16
  func.return
}

// -----

func.func @f(%x: i32) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'i32'}}
  %0 = spyreop.exp %x : i32
  func.return
}

// -----

func.func @f(%x: f64) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'f64'}}
  %0 = spyreop.sqrt %x : f64
  func.return
}

// -----

func.func @f(%x: bf16) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'bf16'}}
  %0 = spyreop.reciprocal %x : bf16
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{attribute f16 expected from variable 'T', but got f32}}
  %0 = "spyreop.sigmoid"(%x) : (f16) -> f32
  func.return
}

// -----

func.func @f(%a: f16, %b: f32) {
  // expected-error@+1 {{attribute f16 expected from variable 'T', but got f32}}
  %0 = "spyreop.realdiv"(%a, %b) : (f16, f32) -> f16
  func.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'i32'}}
  %0 = spyreop.realdiv %a, %a : i32
  func.return
}

// -----

func.func @f(%x: i64) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'i64'}}
  %0, %1 = spyreop.exx2 %x : i64
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{attribute f16 expected from variable 'T', but got f32}}
  %0:2 = "spyreop.exx2"(%x) : (f16) -> (f16, f32)
  func.return
}

// -----

func.func @f(%m: f16, %sq: f32) {
  // expected-error@+1 {{attribute f16 expected from variable 'T', but got f32}}
  %0 = "spyreop.layernormscale"(%m, %sq) : (f16, f32) -> f16
  func.return
}

// -----

func.func @f(%x: i32) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'i32'}}
  %0 = spyreop.layernormnorm %x squares %x scale %x weight %x bias %x : i32
  func.return
}

// -----

func.func @f(%x: f16, %w: !spyreop.df16) {
  // expected-error@+1 {{attribute f16 expected from variable 'T', but got !spyreop.df16}}
  %0 = "spyreop.layernormnorm"(%x, %x, %x, %w, %x) : (f16, f16, f16, !spyreop.df16, f16) -> f16
  func.return
}

// -----

func.func @f(%c: i1, %x: f16) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'i1'}}
  %0 = "spyreop.select"(%c, %c, %c) : (i1, i1, i1) -> i1
  func.return
}

// -----

func.func @f(%a: f16, %b: f16) {
  // expected-error@+1 {{attribute f16 expected from variable 'T', but got i1}}
  %0 = "spyreop.compare"(%a, %b) <{predicate = #spyreop.compare_predicate<equal>}> : (f16, f16) -> i1
  func.return
}

// -----

func.func @f(%a: f16, %b: f16) {
  // expected-error@+1 {{Expected `equal`, `notequal`, `greaterthan`, `greaterequal`, `lesserthan`, or `lesserequal`}}
  %0 = spyreop.compare <less> %a, %b : f16
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{result #0 must be !spyreop.fp16_fused, but got '!spyreop.df16_fused'}}
  %0 = spyreop.exx2_fused %x : f16 -> !spyreop.df16_fused
  func.return
}

// -----

func.func @f(%x: f64) {
  // expected-error@+1 {{operand #0 must be f16, !spyreop.df16 or f32, but got 'f64'}}
  %0 = spyreop.exx2_fused %x : f64 -> !spyreop.fp32_fused
  func.return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{result #0 must be !spyreop.fp32_fused, but got 'f32'}}
  %0 = spyreop.exx2_fused %x : f32 -> f32
  func.return
}

// -----

func.func @f(%p: !spyreop.df16_fused) {
  // expected-error@+1 {{result #0 must be !spyreop.df16, but got 'f16'}}
  %0 = spyreop.layernormscale_fused %p : !spyreop.df16_fused -> f16
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{operand #0 must be !spyreop.fp16_fused, !spyreop.df16_fused or !spyreop.fp32_fused, but got 'f16'}}
  %0 = spyreop.layernormscale_fused %x : f16 -> f16
  func.return
}

// -----

func.func @f(%a: i64) {
  // expected-error@+1 {{Expected attribute i32 but got i64}}
  %0 = "spyreop.addi32toi32"(%a, %a) : (i64, i64) -> i32
  func.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{Expected attribute i64 but got i32}}
  %0 = "spyreop.addi64toi64"(%a, %a) : (i32, i32) -> i64
  func.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{Expected attribute i32 but got i64}}
  %0 = "spyreop.muli32toi32"(%a, %a) : (i32, i32) -> i64
  func.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{expects either base and stride operands, or base_address and stride attributes}}
  %0 = "spyreop.idx32toaddr"(%a) {operandSegmentSizes = array<i32: 1, 0, 0>} : (i32) -> i32
  func.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{expects either base and stride operands, or base_address and stride attributes}}
  %0 = "spyreop.idx32toaddr"(%a, %a) <{stride = 4 : i32}> {operandSegmentSizes = array<i32: 1, 1, 0>} : (i32, i32) -> i32
  func.return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{Expected integer literal}}
  %0 = spyreop.idx32toaddr %a base 0x1000 stride %a
  func.return
}

// -----

func.func @f(%a: i64) {
  // expected-error@+1 {{Expected attribute i32 but got i64}}
  %0 = "spyreop.idx32toaddr"(%a, %a, %a) {operandSegmentSizes = array<i32: 1, 1, 1>} : (i64, i64, i64) -> i32
  func.return
}

// -----

func.func @f(%t: tensor<64xf16>) {
  // expected-error@+1 {{Expected `add`, `sub`, `max`, `min`, `mul`, or `abs_max`}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<avg>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  func.return
}

// -----

func.func @f(%t: tensor<64xf16>) {
  // expected-error@+1 {{Expected `in_slice`, or `across_slice`}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<global>} : tensor<64xf16> -> tensor<64xf16>
  func.return
}

// -----

func.func @f(%t: tensor<64xf16>) {
  // expected-error@+1 {{reduction_scope}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>} : tensor<64xf16> -> tensor<64xf16>
  func.return
}

// -----

func.func @f(%t: tensor<64xf16>) {
  // expected-error@+1 {{attribute tensor<64xf16> expected from variable 'T', but got tensor<32xf16>}}
  %0 = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<32xf16>
  func.return
}

// -----

func.func @f(%x: f16) {
  // expected-error@+1 {{f16 should be of base attribute tensor}}
  %0 = spyreop.slice_reduction %x {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : f16 -> f16
  func.return
}
