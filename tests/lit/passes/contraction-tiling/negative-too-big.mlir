// A contraction whose result does not fit the scratchpad in the accumulator type is
// refused at the op: on toy (64 KiB) a 128 x 128 f32 result takes all of it, more
// than the share the contraction's buffers may take.

// RUN: not ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling 2>&1 | filecheck %s
// CHECK-NOT: Traceback

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @big(%a: index, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %view = ktdp.construct_memory_view %a, sizes: [128, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %t = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<128x128xf16> -> !ktdp.access_tile<128x128xindex>
    %x = ktdp.load %t : !ktdp.access_tile<128x128xindex> -> tensor<128x128xf16>
    %e = tensor.empty() : tensor<128x128xf16>
    // CHECK: negative-too-big.mlir:[[# @LINE + 1]]:5: error: a 128 x 128 by 128 x 128 product has no tiles that fit PT's 512 bytes of accumulators and the scratchpad of device @toy
    %p = linalg.matmul ins(%x, %x : tensor<128x128xf16>, tensor<128x128xf16>) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
    ktdp.store %p, %t : tensor<128x128xf16>, !ktdp.access_tile<128x128xindex>
    return
  }
}
