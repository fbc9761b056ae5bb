// Input of verify-diagnostics.mlir: an expected error that the valid IR below does
// not produce. The check is for ktc-opt's stderr; the message points at the comment.

func.func @valid(%a: i32) -> i32 {
  // CHECK: verify-diagnostics-not-produced.mlir:[[# @LINE + 1]]:6: error: expected error "result type" was not produced
  // expected-error@+1 {{result type}}
  return %a : i32
}
// CHECK-NOT: error
