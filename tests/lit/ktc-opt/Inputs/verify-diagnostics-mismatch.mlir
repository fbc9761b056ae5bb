// Input of verify-diagnostics.mlir: errors whose expectation is on the wrong line or
// has the wrong text; each is both unexpected and not produced. The checks are for
// ktc-opt's stderr.

func.func @wrong_line(%a: i32) -> i64 {
  // CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:3: error: unexpected error: 'func.return' op Expected arguments
  // CHECK-NEXT: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:6: error: expected error "Expected arguments" was not produced
  return %a : i32
  // expected-error@+1 {{Expected arguments}}
}

// -----

func.func @wrong_text(%a: i32) -> i64 {
  // CHECK-NEXT: verify-diagnostics-mismatch.mlir:[[# @LINE + 2]]:3: error: unexpected error: 'func.return' op Expected arguments
  // CHECK-NEXT: verify-diagnostics-mismatch.mlir:[[# @LINE + 1]]:22: error: expected error "Expected results" was not produced
  return %a : i32 // expected-error {{Expected results}}
}
// CHECK-NOT: error
