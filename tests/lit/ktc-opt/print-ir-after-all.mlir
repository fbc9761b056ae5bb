// --print-ir-after-all prints MLIR's "IR Dump After" banner and the IR after each pass
// of the pipeline, in pipeline order, on stderr; a change shows up first in the dump
// of the pass that made it, and the output file keeps only the final IR.

// RUN: ktc-opt %s -p canonicalize,cse --print-ir-after-all -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --check-prefix=OUT < %t

func.func @square_twice(%a: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %x = arith.addi %a, %zero : i32
  %y = arith.muli %x, %x : i32
  %z = arith.muli %x, %x : i32
  %s = arith.addi %y, %z : i32
  return %s : i32
}

// canonicalize folds the addition of zero; the two equal products survive it.
// CHECK-NOT:  Before
// CHECK:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @square_twice(%a: i32) -> i32 {
// CHECK-NEXT:     %y = arith.muli %a, %a : i32
// CHECK-NEXT:     %z = arith.muli %a, %a : i32
// CHECK-NEXT:     %s = arith.addi %y, %z : i32
// CHECK-NEXT:     return %s : i32
// CHECK-NOT:  Before

// cse then merges the two products.
// CHECK:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @square_twice(%a: i32) -> i32 {
// CHECK-NEXT:     %y = arith.muli %a, %a : i32
// CHECK-NEXT:     %s = arith.addi %y, %y : i32
// CHECK-NEXT:     return %s : i32
// CHECK-NOT:  IR Dump

// OUT-NOT:  IR Dump
// OUT:      func.func @square_twice(%a: i32) -> i32 {
// OUT-NEXT:   %y = arith.muli %a, %a : i32
// OUT-NEXT:   %s = arith.addi %y, %y : i32
// OUT-NOT:  IR Dump
