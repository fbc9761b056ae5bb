// On toy and line4, whose compute engines have no select instruction but the min, max,
// sub and mul of the blend that stands for it (passes/utils/compares.py), selects pass
// unchanged: by a compare of positions, by a compare of positions joined with a kernel
// argument against -inf (paged attention's causal mask), and on tensors by a compare
// that needs no compare instruction.

// RUN: ktc-opt %s --split-input-file --arch toy > %t.toy.before
// RUN: ktc-opt %s --split-input-file --arch toy -p ktir-legality-check > %t.toy.after
// RUN: diff %t.toy.before %t.toy.after
// RUN: filecheck %s < %t.toy.after
// RUN: ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir > %t.line4.before
// RUN: ktc-opt %s --split-input-file --arch %S/../../arch/Inputs/line4.mlir -p ktir-legality-check > %t.line4.after
// RUN: diff %t.line4.before %t.line4.after
// RUN: filecheck %s < %t.line4.after

// CHECK-LABEL: func.func @masks
// CHECK:         %band = arith.select %in_band, %v, %zero : f16
// CHECK:         %seen = arith.select %causal, %band, %minus_inf : f16
#id = affine_map<(d0, d1) -> (d0, d1)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
func.func @masks(%x: index, %context: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #box, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
  %zero = arith.constant 0.0 : f16
  %minus_inf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<4x16xf16>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%v: f16, %o: f16):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r4 = arith.muli %r, %c4 : index
    %in_band = arith.cmpi ule, %c, %r4 : index
    %band = arith.select %in_band, %v, %zero : f16
    %last = arith.addi %context, %r : index
    %causal = arith.cmpi ule, %c, %last : index
    %seen = arith.select %causal, %band, %minus_inf : f16
    linalg.yield %seen : f16
  } -> tensor<4x16xf16>
  ktdp.store %b, %xt : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
  return
}

// -----

// CHECK-LABEL: func.func @always
// CHECK:         %r = arith.select %m, %t, %u : tensor<64xi1>, tensor<64xf16>
func.func @always(%s: f16, %z: f16) {
  %t = tensor.splat %s : tensor<64xf16>
  %u = tensor.splat %z : tensor<64xf16>
  %m = arith.cmpf true, %t, %u : tensor<64xf16>
  %r = arith.select %m, %t, %u : tensor<64xi1>, tensor<64xf16>
  return
}
