// The upstream forms ktc reads in their KTIR spelling still reject what MLIR rejects,
// with the error where it was written: a short-form linalg.reduce naming an op that
// does not exist, a `symbol(...)` subscript around anything but one value, an
// iter_args arrow with no type, a linalg.reduce of two inputs into one output.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics

func.func @unknown_combiner(%a: tensor<8x16xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{unknown combining op 'arith.nosuchop'}}
  %r = linalg.reduce { arith.nosuchop } ins(%a : tensor<8x16xf32>) outs(%b : tensor<8xf32>) dimensions = [1]
  return
}

// -----

func.func @symbol_of_expression(%m: memref<16xf32>) {
  affine.for %i = 0 to 10 {
    // expected-error@+1 {{Expected ')'}}
    %v = affine.load %m[symbol(%i + 1)] : memref<16xf32>
  }
  return
}

// -----

func.func @arrow_without_type(%a: index, %z: tensor<4xf32>) {
  // expected-error@+1 {{type expected}}
  %l = scf.for %i = %a to %a step %a iter_args(%acc = %z) -> {
    scf.yield %acc : tensor<4xf32>
  }
  return
}

// -----

func.func @outputs_fewer_than_inputs(%a: tensor<8x16xf32>, %i: tensor<8x16xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{Variadic operands have different sizes: [2, 1]}}
  %r = linalg.reduce ins(%a, %i : tensor<8x16xf32>, tensor<8x16xf32>) outs(%b : tensor<8xf32>) dimensions = [1]
    (%x: f32, %y: f32, %acc: f32) {
      linalg.yield %acc : f32
    }
  return
}
