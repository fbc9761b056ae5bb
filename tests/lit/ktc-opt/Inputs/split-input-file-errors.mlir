// Input of split-input-file.mlir: a valid chunk and two failing ones. The checks are
// for ktc-opt's stderr (each error names its line in this file, and shows it with a
// caret); the GOOD checks for its stdout, the one chunk that compiled.

// GOOD:      func.func @fine
// GOOD-NOT:  func.func

func.func @fine(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  func.return %x : i32
}

// -----

func.func @wrong_result(%a: i32) -> i64 {
  // CHECK: split-input-file-errors.mlir:[[# @LINE + 1]]:3: error: 'func.return' op Expected arguments to have the same types as the function output types
  func.return %a : i32
  // CHECK-NEXT: {{^}}  func.return %a : i32
  // CHECK-NEXT: {{^}}  ^
}

// -----

// %x was defined in the first chunk, which this one cannot see.
func.func @uses_other_chunk(%a: i32) -> i32 {
  // CHECK-NEXT: split-input-file-errors.mlir:[[# @LINE + 1]]:23: error: use of undeclared SSA value name %x
  %y = arith.addi %a, %x : i32
  // CHECK-NEXT: {{^}}  %y = arith.addi %a, %x : i32
  // CHECK-NEXT: {{^}}                      ^
  func.return %y : i32
}
// CHECK-NOT: {{.}}
