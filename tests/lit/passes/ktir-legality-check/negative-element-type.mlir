// Data the compute engine has no lanes for is rejected where it first appears:
// f64 on toy, bf16 on spyre, df16 on line4 (which computes only f32 and f16), and
// an integer tensor anywhere.

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

// TOY:   negative-element-type.mlir:15:3: error: 'ktdp.load' produces tensor<64xf64>, but SFU of device @toy has no lanes for f64 (it has f16, !spyreop.df16, f32)
// SPYRE: negative-element-type.mlir:15:3: error: 'ktdp.load' produces tensor<64xf64>, but SFU of device @spyre has no lanes for f64 (it has f16, !spyreop.df16, f32)
// LINE4: negative-element-type.mlir:15:3: error: 'ktdp.load' produces tensor<64xf64>, but VPU of device @line4 has no lanes for f64 (it has f32, f16)

// -----

func.func @brain_float(%s: bf16) {
  %t = tensor.splat %s : tensor<64xbf16>
  return
}

// TOY:   negative-element-type.mlir:26:3: error: 'tensor.splat' produces tensor<64xbf16>, but SFU of device @toy has no lanes for bf16
// SPYRE: negative-element-type.mlir:26:3: error: 'tensor.splat' produces tensor<64xbf16>, but SFU of device @spyre has no lanes for bf16

// -----

func.func @df16(%s: !spyreop.df16) {
  %t = tensor.splat %s : tensor<64x!spyreop.df16>
  %e = tensor.empty() : tensor<64xi32>
  return
}

// TOY:   negative-element-type.mlir:37:3: error: 'tensor.empty' produces tensor<64xi32>, but SFU of device @toy has no lanes for i32
// SPYRE: negative-element-type.mlir:37:3: error: 'tensor.empty' produces tensor<64xi32>, but SFU of device @spyre has no lanes for i32
// LINE4: negative-element-type.mlir:36:3: error: 'tensor.splat' produces tensor<64x!spyreop.df16>, but VPU of device @line4 has no lanes for !spyreop.df16 (it has f32, f16)
