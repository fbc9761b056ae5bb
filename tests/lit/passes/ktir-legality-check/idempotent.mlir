// The check changes nothing, so running it on its own output gives that output
// again.

// RUN: ktc-opt %s --arch toy -p ktir-legality-check > %t.once
// RUN: ktc-opt %t.once -p ktir-legality-check,ktir-legality-check > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.twice

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @scale(%x: index, %y: index, %factor: f16) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [128], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %y_view = ktdp.construct_memory_view %y, sizes: [128], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %v = ktdp.load %x_tile : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %f = tensor.splat %factor : tensor<128xf16>
  %scaled = arith.mulf %v, %f : tensor<128xf16>
  ktdp.store %scaled, %y_tile : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}

// CHECK:       ktdf_arch.device @toy import(
// CHECK-LABEL: func.func @scale(
// CHECK:         %[[V:.*]] = ktdp.load
// CHECK-NEXT:    %[[F:.*]] = tensor.splat
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %[[V]], %[[F]] : tensor<128xf16>
// CHECK-NEXT:    ktdp.store %[[S]],
