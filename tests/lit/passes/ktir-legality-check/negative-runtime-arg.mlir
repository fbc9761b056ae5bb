// Runtime arguments (values known only at launch, with a granularity and bound)
// are not handled by the pipeline yet; a kernel taking one is rejected.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

// expected-error@+1 {{'func.func' @runtime argument #1 is a runtime argument (!ktdp.runtime_arg<index, granularity=64, upperbound=4096>), which is not supported yet}}
func.func @runtime(%x: index, %n: !ktdp.runtime_arg<index, granularity=64, upperbound=4096>) {
  %v = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity=64, upperbound=4096> -> index
  return
}
