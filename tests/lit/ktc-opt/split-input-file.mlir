// --split-input-file cuts the input at its marker lines and processes each chunk as a
// module of its own, printing the outputs separated by the same marker; a chunk
// without ops gives an empty module. Errors name lines of the original file, every
// failing chunk is reported on stderr, and, as with mlir-opt, the chunks that succeed
// are still printed on stdout (the exit code is 1); with -o a failed run writes nothing.

// RUN: ktc-opt %s --split-input-file -p cse | filecheck %s
// RUN: not ktc-opt %S/Inputs/split-input-file-errors.mlir --split-input-file 2> %t > %t.out
// RUN: filecheck %S/Inputs/split-input-file-errors.mlir < %t
// RUN: filecheck %S/Inputs/split-input-file-errors.mlir --check-prefix=GOOD < %t.out
// RUN: rm -f %t.o && not ktc-opt %S/Inputs/split-input-file-errors.mlir --split-input-file -o %t.o
// RUN: not ls %t.o

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  func.return %d : i32
}

// CHECK:      module {
// CHECK-NEXT:   func.func @f(%a: i32) -> i32 {
// CHECK-NEXT:     %b = arith.addi %a, %a : i32
// CHECK-NEXT:     %d = arith.muli %b, %b : i32
// CHECK-NEXT:     return %d : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: {{//}} -----

// -----

// The same names again: nothing is shared with the chunk above.
func.func @f(%a: i64) -> i64 {
  %b = arith.subi %a, %a : i64
  func.return %b : i64
}

// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%a: i64) -> i64 {
// CHECK-NEXT:     %b = arith.subi %a, %a : i64
// CHECK-NEXT:     return %b : i64
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: {{//}} -----

// -----

// A chunk of comments only.
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-NOT:  {{.}}
