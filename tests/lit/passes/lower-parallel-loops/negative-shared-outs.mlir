// An scf.forall whose iterations assemble a tensor in shared_outs is refused at the
// loop, saying to store each piece instead.

// RUN: ktc-opt %s --verify-diagnostics -p lower-parallel-loops

func.func @assembled(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'scf.forall' has shared_outs: its iterations assemble a tensor, which the compiler does not do; store each iteration's piece with ktdp.store instead}}
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<8xf32>
}
