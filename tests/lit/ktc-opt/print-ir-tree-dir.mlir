// --print-ir-tree-dir DIR writes one numbered file per pass of the pipeline into DIR,
// named <index>_<pass-arg>.mlir, each holding the IR after that pass under MLIR's
// banner; the normal output is unchanged.

// RUN: rm -rf %t && ktc-opt %s -p canonicalize,cse --print-ir-tree-dir %t/tree | filecheck %s --check-prefix=OUT
// RUN: ls %t/tree | filecheck %s --check-prefix=LS
// RUN: cat %t/tree/0_canonicalize.mlir | filecheck %s --check-prefix=CANON
// RUN: cat %t/tree/1_cse.mlir | filecheck %s --check-prefix=CSE

func.func @square_twice(%a: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %x = arith.addi %a, %zero : i32
  %y = arith.muli %x, %x : i32
  %z = arith.muli %x, %x : i32
  %s = arith.addi %y, %z : i32
  return %s : i32
}

// OUT:      %y = arith.muli %a, %a : i32
// OUT-NEXT: %s = arith.addi %y, %y : i32

// LS:      0_canonicalize.mlir
// LS-NEXT: 1_cse.mlir
// LS-NOT:  {{.}}

// CANON:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// CANON-NEXT: module {
// CANON-NEXT:   func.func @square_twice(%a: i32) -> i32 {
// CANON-NEXT:     %y = arith.muli %a, %a : i32
// CANON-NEXT:     %z = arith.muli %a, %a : i32
// CANON-NEXT:     %s = arith.addi %y, %z : i32

// CSE:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// CSE-NEXT: module {
// CSE-NEXT:   func.func @square_twice(%a: i32) -> i32 {
// CSE-NEXT:     %y = arith.muli %a, %a : i32
// CSE-NEXT:     %s = arith.addi %y, %y : i32
