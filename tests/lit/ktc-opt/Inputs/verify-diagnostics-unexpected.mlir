// Input of verify-diagnostics.mlir: an error that no comment expects. The check is
// for ktc-opt's stderr.

func.func @wrong_result(%a: i32) -> i64 {
  // CHECK: verify-diagnostics-unexpected.mlir:[[# @LINE + 1]]:3: error: unexpected error: 'func.return' op Expected arguments to have the same types
  return %a : i32
}
// CHECK-NOT: error
