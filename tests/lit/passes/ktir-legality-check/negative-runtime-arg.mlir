// A runtime argument is judged by its underlying type: one of a type ktc does not
// support is rejected at the function.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

// expected-error@+1 {{'func.func' uses element type bf16, which ktc does not support}}
func.func @runtime(%x: index, %n: !ktdp.runtime_arg<bf16, upperbound=4096>) {
  %v = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<bf16, upperbound=4096> -> bf16
  return
}
