// Patterns that keep rewriting (here exp into a new exp, at post_scheduling) are
// stopped after 10 rounds over a function, with an error at that function,
// instead of running forever.

// RUN: ktc-opt %s --arch %S/Inputs/unsupported.mlir -p 'apply-arch-patterns{point=post_scheduling}' --verify-diagnostics

// expected-error@+1 {{the device's patterns at post_scheduling still rewrite @exp after 10 rounds}}
func.func @exp(%x: f16) -> f16 {
  %e = spyreop.exp %x : f16
  func.return %e : f16
}
