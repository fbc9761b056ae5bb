// On a device whose compute engine lacks the compare or select instructions (toy and
// line4 list neither in their ktdf_arch.instructions) a compare is refused at the op,
// naming the instructions it needs, the engine and the device; so is a select, even
// by a predicate that needs no compare instruction.

// RUN: not ktc-opt %s --split-input-file --arch toy -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=TOY
// RUN: not ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check 2>&1 | filecheck %s --check-prefix=LINE4

// TOY:   negative-no-compare.mlir:13:3: error: 'arith.cmpf' needs the instructions cmp_gt, cmp_lt, which the SFU of device @toy ({{.*}}toy.mlir) does not have (its ktdf_arch.instructions)
// LINE4: negative-no-compare.mlir:13:3: error: 'arith.cmpf' needs the instructions cmp_gt, cmp_lt, which the VPU of device @line4 ({{.*}}line4.mlir) does not have (its ktdf_arch.instructions)
func.func @ordered_unequal(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %m = arith.cmpf one, %t, %t : tensor<64xf16>
  return
}

// -----

// TOY:   negative-no-compare.mlir:24:3: error: 'arith.select' needs the instruction select, which the SFU of device @toy
// LINE4: negative-no-compare.mlir:24:3: error: 'arith.select' needs the instruction select, which the VPU of device @line4
func.func @always(%s: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %m = arith.cmpf true, %t, %t : tensor<64xf16>
  %r = arith.select %m, %t, %t : tensor<64xi1>, tensor<64xf16>
  return
}
