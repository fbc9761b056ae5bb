// Data the compute engine has no lanes for is rejected where it first appears:
// f64 on toy, df16 on line4 (which computes only f32 and f16), and an integer tensor
// anywhere; an element type ktc supports nowhere (bf16: not in
// ktc.dialects.element_types) is rejected on every device, with the list of those it
// supports, before any lane question.

// RUN: not ktc-opt %s --split-input-file --arch toy -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=TOY
// RUN: not ktc-opt %s --split-input-file --arch spyre -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=SPYRE
// RUN: not ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=LINE4

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @double(%x: index) {
  %c0 = arith.constant 0 : index
  %view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf64>
  %tile = ktdp.construct_access_tile %view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<64xf64> -> !ktdp.access_tile<64xindex>
  %v = ktdp.load %tile : !ktdp.access_tile<64xindex> -> tensor<64xf64>
  return
}

// TOY:   negative-element-type.mlir:17:3: error: 'ktdp.load' produces tensor<64xf64>, but SFU of device @toy has no lanes for f64 (it has f16, !spyreop.df16, f32)
// SPYRE: negative-element-type.mlir:17:3: error: 'ktdp.load' produces tensor<64xf64>, but SFU of device @spyre has no lanes for f64 (it has f16, !spyreop.df16, f32)
// LINE4: negative-element-type.mlir:17:3: error: 'ktdp.load' produces tensor<64xf64>, but VPU of device @line4 has no lanes for f64 (it has f32, f16)

// -----

func.func @brain_float(%s: bf16) {
  %t = tensor.splat %s : tensor<64xbf16>
  return
}

// TOY:   negative-element-type.mlir:[[# @LINE - 5]]:1: error: 'func.func' uses element type bf16, which ktc does not support (supported: f16, f32, f64, df16, i1, i8, i16, i32, i64, index)
// SPYRE: negative-element-type.mlir:[[# @LINE - 6]]:1: error: 'func.func' uses element type bf16, which ktc does not support
// LINE4: negative-element-type.mlir:[[# @LINE - 7]]:1: error: 'func.func' uses element type bf16, which ktc does not support

// -----

func.func @brain_float_tensor(%s: f16) {
  %t = tensor.empty() : tensor<64xbf16>
  return
}

// TOY:   negative-element-type.mlir:[[# @LINE - 4]]:3: error: 'tensor.empty' uses element type bf16, which ktc does not support

// -----

func.func @df16(%s: !spyreop.df16) {
  %t = tensor.splat %s : tensor<64x!spyreop.df16>
  %e = tensor.empty() : tensor<64xi32>
  return
}

// TOY:   negative-element-type.mlir:49:3: error: 'tensor.empty' produces tensor<64xi32>, but SFU of device @toy has no lanes for i32
// SPYRE: negative-element-type.mlir:49:3: error: 'tensor.empty' produces tensor<64xi32>, but SFU of device @spyre has no lanes for i32
// LINE4: negative-element-type.mlir:48:3: error: 'tensor.splat' produces tensor<64x!spyreop.df16>, but VPU of device @line4 has no lanes for !spyreop.df16 (it has f32, f16)
