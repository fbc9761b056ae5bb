// A spyreop intrinsic passes when the device lowers it: a pattern of the device at
// pre_mapping or pre_scheduling matches it and decomposes it or maps it onto an
// instruction (here spyreop.exp, which one device rewrites into math.exp at
// pre_scheduling and the shipped Spyre maps onto its SFU's exp at pre_mapping), or
// a pattern already mapped it (Spyre after pre_mapping, as the pipeline runs it).
// The check leaves the kernel unchanged.

// RUN: ktc-opt %s --arch %S/Inputs/lowers_exp.mlir -p ktir-legality-check | filecheck %s
// RUN: ktc-opt %s --arch spyre -p ktir-legality-check | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %s --arch spyre -p 'apply-arch-patterns{point=pre_mapping},ktir-legality-check' | filecheck %s --check-prefix=MAPPED

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @exp(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %y_view = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %v = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %e = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel"]} ins(%v : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %exp = spyreop.exp %in : f16
    linalg.yield %exp : f16
  } -> tensor<64xf16>
  ktdp.store %e, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// CHECK:       ktdf_arch.device @lowers_exp import(
// CHECK-LABEL: func.func @exp(
// CHECK:         %[[EXP:.*]] = spyreop.exp %{{.*}} : f16
// CHECK-NEXT:    linalg.yield %[[EXP]] : f16

// SPYRE-LABEL: func.func @exp(
// SPYRE:         spyreop.exp %{{.*}} : f16

// MAPPED-LABEL: func.func @exp(
// MAPPED:         spyreop.exp %{{.*}} {ktdf_arch.instruction = "exp"} : f16
