// A stride that depends on a kernel argument is not a constant: the pass leaves it,
// and the legality check after it names the view.

// RUN: not ktc-opt %s --arch spyre -p fold-view-strides,ktir-legality-check 2>&1 | filecheck %s

#set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
func.func @kernel(%p: index, %n: index) attributes {grid = [1]} {
  %v = ktdp.construct_memory_view %p, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  return
}

// CHECK: negative-argument-stride.mlir:8:3: error: 'ktdp.construct_memory_view' has dynamic strides
