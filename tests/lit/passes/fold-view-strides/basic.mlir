// Strides computed from constants (a constant, a product of constants, a quotient)
// become static strides of the view; a stride that depends on an argument stays an
// operand, and the written static strides are kept.

// RUN: ktc-opt %s -p fold-view-strides | filecheck %s

func.func private @use(memref<16x8x128xf16>, memref<4x16xf16>)
func.func @views(%p: index, %n: index) {
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c2048 = arith.constant 2048 : index
  %row = arith.muli %c8, %c128 : index
  %pages = arith.divui %c2048, %c128 : index
  %folded = ktdp.construct_memory_view %p, sizes: [16, 8, 128], strides: [%row, %c128, 1] {memory_space = #ktdp.memory_space<global>} : memref<16x8x128xf16>
  %mixed = ktdp.construct_memory_view %p, sizes: [4, 16], strides: [%n, %pages] {memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  func.call @use(%folded, %mixed) : (memref<16x8x128xf16>, memref<4x16xf16>) -> ()
  return
}

// CHECK-LABEL: func.func @views(%p: index, %n: index)
// CHECK:         %folded = ktdp.construct_memory_view %p, sizes: [16, 8, 128], strides: [1024, 128, 1]
// CHECK:         %mixed = ktdp.construct_memory_view %p, sizes: [4, 16], strides: [%n, 16]
