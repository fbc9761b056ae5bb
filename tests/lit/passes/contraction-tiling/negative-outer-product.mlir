// On a chip without a matrix unit (the third test chip) a contraction over a single
// k element (an outer product, 8 x 1 by 1 x 8) is refused at the op: its SIMD
// schedule reduces rows of two or more elements. On toy's matrix unit it compiles.

// RUN: not ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p normalize-contractions,contraction-tiling 2>&1 | filecheck %s
// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling | filecheck %s --check-prefix=TOY
// CHECK-NOT: Traceback
// TOY: ktdf.contraction_tiles = {{{.*}}engine = "PT"{{.*}}k = 1 : i64

#col = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @outer(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %av = ktdp.construct_memory_view %a, sizes: [8, 1], strides: [1, 1] {coordinate_set = #col, memory_space = #ktdp.memory_space<global>} : memref<8x1xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [8, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #col, access_tile_order = #id} : memref<8x1xf16> -> !ktdp.access_tile<8x1xindex>
    %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #out, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
    %x = ktdp.load %at : !ktdp.access_tile<8x1xindex> -> tensor<8x1xf16>
    %y = ktdp.load %bt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
    %e = tensor.empty() : tensor<8x8xf16>
    // CHECK: negative-outer-product.mlir:[[# @LINE + 1]]:5: error: a contraction over one element (an outer product) on VPU, device @line4's SIMD engine, which reduces rows of two or more elements; write it as an elementwise product of broadcasts
    %p = linalg.matmul ins(%x, %y : tensor<8x1xf16>, tensor<1x8xf16>) outs(%e : tensor<8x8xf16>) -> tensor<8x8xf16>
    ktdp.store %p, %ct : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
    return
  }
}
