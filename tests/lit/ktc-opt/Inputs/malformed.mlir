// Input of errors.mlir: chunks malformed in ways that xDSL's own parser reports
// badly or never. The checks are for ktc-opt's stderr, one error per chunk (with its
// source line and a caret when the line is in the chunk).

// A string left open on a long line (xDSL's lexer backtracks exponentially on it).
// CHECK-NOT: Traceback
// CHECK: malformed.mlir:[[# @LINE + 1]]:45: error: End of file reached before closing string literal.
func.func @open_string() attributes {note = "this string is never closed, and the line goes on for a while} {
// CHECK-NEXT: {{^}}func.func @open_string()
// CHECK-NEXT: {{^}}                                            ^
  func.return
}

// -----

// A region that the chunk ends inside of.
// CHECK-NEXT: malformed.mlir:[[# @LINE + 5]]:1: error: expected an operation or '}' to close the region
func.func @open_region(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  func.return %x : i32

// -----
// CHECK-NOT: {{.}}
