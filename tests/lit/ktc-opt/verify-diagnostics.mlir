// --verify-diagnostics checks the errors against the expected-error comments: when
// every error is expected and every expectation is met, ktc-opt exits 0 and prints
// the chunks that had no error. An expectation names its line as the comment's own
// line, @+N, @-N, @above, @below or an absolute line number. An expectation that is
// not met, or an error nobody expected, makes it exit 1 and say which.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not ktc-opt %S/Inputs/verify-diagnostics-not-produced.mlir --verify-diagnostics > %t 2>&1
// RUN: filecheck %S/Inputs/verify-diagnostics-not-produced.mlir < %t
// RUN: not ktc-opt %S/Inputs/verify-diagnostics-unexpected.mlir --verify-diagnostics > %t 2>&1
// RUN: filecheck %S/Inputs/verify-diagnostics-unexpected.mlir < %t
// RUN: not ktc-opt %S/Inputs/verify-diagnostics-mismatch.mlir --split-input-file --verify-diagnostics > %t 2>&1
// RUN: filecheck %S/Inputs/verify-diagnostics-mismatch.mlir < %t

func.func @same_line(%a: i32) -> i64 {
  return %a : i32 // expected-error {{Expected arguments to have the same types as the function output types}}
}

// -----

func.func @plus(%a: i32) -> i64 {
  // expected-error@+2 {{Expected arguments}}

  return %a : i32
}

// -----

func.func @minus(%a: i32) -> i64 {
  return %a : i32

  // expected-error@-2 {{Expected arguments}}
}

// -----

func.func @below(%a: i32) -> i64 {
  // expected-error@below {{Expected arguments}}
  return %a : i32
}

// -----

func.func @above(%a: i32) -> i64 {
  return %a : i32
  // expected-error@above {{Expected arguments}}
}

// -----

func.func @absolute(%a: i32) -> i64 {
  return %a : i32
}
// expected-error@52 {{Expected arguments}}

// -----

func.func @parse_error(%a: i32) -> i32 {
  // expected-error @+1 {{use of undeclared SSA value name %b}}
  %x = arith.addi %a, %b : i32
  return %x : i32
}

// -----

func.func @valid(%a: i32) -> i32 {
  return %a : i32
}

// CHECK:      module {
// CHECK-NEXT:   func.func @valid(%a: i32) -> i32 {
// CHECK-NEXT:     return %a : i32
// CHECK-NOT:  func.func
