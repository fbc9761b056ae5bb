// On a device whose compute engine lacks the compare instructions (toy and line4 list
// none in their ktdf_arch.instructions) a compare is refused at the op, naming the
// instructions it needs, the engine and the device. A select, even by a predicate
// that needs no compare instruction, is refused on an engine that has neither the
// select instruction nor the min and max of the blend that stands for it (line4 with
// neither select nor min), naming both; toy and line4 accept it
// (select-blend.mlir).

// RUN: not ktc-opt %s --split-input-file --arch toy -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=TOY
// RUN: not ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=LINE4
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/no-min.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=NOMIN

// TOY:   negative-no-compare.mlir:18:3: error: 'arith.cmpf' needs the instructions cmp_gt, cmp_lt, which the SFU of device @toy ({{.*}}toy.mlir) does not have (its ktdf_arch.instructions)
// LINE4: negative-no-compare.mlir:18:3: error: 'arith.cmpf' needs the instructions cmp_gt, cmp_lt, which the VPU of device @line4 ({{.*}}line4.mlir) does not have (its ktdf_arch.instructions)
// NOMIN: negative-no-compare.mlir:18:3: error: 'arith.cmpf' needs the instructions cmp_gt, cmp_lt, which the VPU of device @line4_nomin
func.func @ordered_unequal(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %m = arith.cmpf one, %t, %t : tensor<64xf16>
  return
}

// -----

// NOMIN: negative-no-compare.mlir:28:3: error: 'arith.select' needs the instruction select, or the instruction min to blend its values by min and max, which the VPU of device @line4_nomin ({{.*}}no-min.mlir) does not have (its ktdf_arch.instructions)
func.func @always(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %m = arith.cmpf true, %t, %t : tensor<64xf16>
  %r = arith.select %m, %t, %t : tensor<64xi1>, tensor<64xf16>
  return
}
