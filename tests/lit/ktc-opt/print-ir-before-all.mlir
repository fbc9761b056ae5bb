// --print-ir-before-all prints MLIR's "IR Dump Before" banner and the IR each pass of
// the pipeline receives, in pipeline order, on stderr; with --print-ir-after-all as
// well, each pass's Before and After dumps enclose the change it makes.

// RUN: ktc-opt %s -p canonicalize,cse --print-ir-before-all -o %t 2>&1 | filecheck %s
// RUN: ktc-opt %s -p canonicalize,cse --print-ir-before-all --print-ir-after-all -o %t 2>&1 | filecheck %s --check-prefix=BOTH

func.func @square_twice(%a: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %x = arith.addi %a, %zero : i32
  %y = arith.muli %x, %x : i32
  %z = arith.muli %x, %x : i32
  %s = arith.addi %y, %z : i32
  return %s : i32
}

// canonicalize receives the input as written.
// CHECK-NOT:  After
// CHECK:      // -----// IR Dump Before CanonicalizePass (canonicalize) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @square_twice(%a: i32) -> i32 {
// CHECK-NEXT:     %zero = arith.constant 0 : i32
// CHECK-NEXT:     %x = arith.addi %a, %zero : i32
// CHECK-NEXT:     %y = arith.muli %x, %x : i32
// CHECK-NEXT:     %z = arith.muli %x, %x : i32
// CHECK-NOT:  After

// cse receives canonicalize's result: no zero, still two products.
// CHECK:      // -----// IR Dump Before CommonSubexpressionElimination (cse) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @square_twice(%a: i32) -> i32 {
// CHECK-NEXT:     %y = arith.muli %a, %a : i32
// CHECK-NEXT:     %z = arith.muli %a, %a : i32
// CHECK-NEXT:     %s = arith.addi %y, %z : i32
// CHECK-NOT:  IR Dump

// BOTH:      IR Dump Before CanonicalizePass (canonicalize)
// BOTH:      %zero = arith.constant 0 : i32
// BOTH:      IR Dump After CanonicalizePass (canonicalize)
// BOTH-NOT:  %zero
// BOTH:      IR Dump Before CommonSubexpressionElimination (cse)
// BOTH:      %z = arith.muli %a, %a : i32
// BOTH:      IR Dump After CommonSubexpressionElimination (cse)
// BOTH-NOT:  %z =
// BOTH-NOT:  IR Dump
