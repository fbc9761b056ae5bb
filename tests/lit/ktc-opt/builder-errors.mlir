// IR that xDSL's own verifiers and op builders crash on (an IndexError, a bare
// assertion, a use without an owner, an integer past i64) is reported like any other
// diagnostic: file:line:col of the op, the source line and a caret, exit code 1.

// RUN: not ktc-opt %s --split-input-file 2> %t
// RUN: filecheck %s < %t

// CHECK-NOT:  internal error
// CHECK:      builder-errors.mlir:[[# @LINE + 2]]:3: error: 'linalg.reduce' op reduction dimension 5 is out of range for an input of rank 2
func.func @reduce_dimension_out_of_range(%x: tensor<4x8xf16>, %init: tensor<4xf16>) -> tensor<4xf16> {
  %r = linalg.reduce ins(%x : tensor<4x8xf16>) outs(%init : tensor<4xf16>) dimensions = [5]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  return %r : tensor<4xf16>
}
// CHECK-NEXT: {{^}}  %r = linalg.reduce
// CHECK-NEXT: {{^}}  ^

// -----

// CHECK:      builder-errors.mlir:[[# @LINE + 2]]:3: error: 'linalg.broadcast' cannot be built from its operands and types as written (AssertionError)
func.func @broadcast_index(%x: tensor<8xindex>, %init: tensor<4x8xindex>) -> tensor<4x8xindex> {
  %r = linalg.broadcast ins(%x : tensor<8xindex>) outs(%init : tensor<4x8xindex>) dimensions = [0]
  return %r : tensor<4x8xindex>
}

// -----

// CHECK:      builder-errors.mlir:[[# @LINE + 4]]:23: error: use of undeclared SSA value name %n (its definition inside a region is not visible here)
func.func @bound_defined_in_body() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %n = arith.constant 4 : index
  }
  return
}
// CHECK-NEXT: {{^}}  scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT: {{^}}                      ^

// -----

// CHECK:      builder-errors.mlir:[[# @LINE + 2]]:3: error: 'ktdp.construct_memory_view' cannot be built from its operands and types as written (Integer value 18446744073709551616 is out of range for type i64
func.func @size_past_i64(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [18446744073709551616], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>
  } : memref<16xf16>
  return
}
