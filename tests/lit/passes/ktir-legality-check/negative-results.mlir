// A function that returns values is refused at the function, naming what it returns:
// a kernel writes its results through memory views and returns nothing.

// RUN: not ktc-opt %s --arch spyre -p ktir-legality-check 2>&1 | filecheck %s

func.func @scaled(%x: f16, %y: f16) -> (f16, f16) {
  %s = arith.mulf %x, %y : f16
  return %s, %s : f16, f16
}

// CHECK: negative-results.mlir:6:1: error: 'func.func' @scaled returns f16, f16; a kernel returns nothing: it writes its results through memory views with ktdp.store
