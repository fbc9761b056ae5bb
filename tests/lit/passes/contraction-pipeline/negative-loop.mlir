// A loop accumulating a contraction may hold only the contraction, the loads of its
// operands and index arithmetic: one that also stores is refused at the store.

// RUN: not ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline 2>&1 | filecheck %s
// CHECK-NOT: Traceback

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @busy(%a: index, %c: index, %K: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %av = ktdp.construct_memory_view %a, sizes: [8, 8], strides: [8, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [8, 8], strides: [8, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #s, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
    %zeros = arith.constant dense<0.0> : tensor<8x8xf16>
    %sum = scf.for %k = %c0 to %K step %c8 iter_args(%acc = %zeros) -> (tensor<8x8xf16>) {
      %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #s, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
      %x = ktdp.load %at : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
      // CHECK: negative-loop.mlir:[[# @LINE + 1]]:7: error: 'ktdp.store' in a loop accumulating a contraction; the loop may hold only the contraction, its loads and index arithmetic
      ktdp.store %x, %ct : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
      %next = linalg.matmul ins(%x, %x : tensor<8x8xf16>, tensor<8x8xf16>) outs(%acc : tensor<8x8xf16>) -> tensor<8x8xf16>
      scf.yield %next : tensor<8x8xf16>
    }
    ktdp.store %sum, %ct : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
    return
  }
}
