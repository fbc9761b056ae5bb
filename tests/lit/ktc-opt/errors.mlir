// Every failure a user can cause ends in one "error:" line on stderr, located as
// file:line:col where there is a place to point at (then, as MLIR prints it, the source
// line and a caret under the column), with exit code 1 and no Python traceback: malformed IR (this file and Inputs/malformed.mlir), an input that
// cannot be read, an unknown pass or pass option. With -o, a failed run writes no
// output file.

// RUN: not ktc-opt %s 2>&1 | filecheck %s
// RUN: rm -f %t.out && not ktc-opt %s -o %t.out 2>&1 | filecheck %s
// RUN: not ls %t.out
// RUN: not ktc-opt %S/Inputs/malformed.mlir --split-input-file 2> %t.err
// RUN: filecheck %S/Inputs/malformed.mlir < %t.err
// RUN: not ktc-opt %t.missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not ktc-opt %S 2>&1 | filecheck %s --check-prefix=FOLDER
// RUN: not ktc-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not ktc-opt %s -p 'cse{no-such-option=1}' 2>&1 | filecheck %s --check-prefix=OPTION

// CHECK-NOT:   Traceback
// CHECK:       errors.mlir:[[# @LINE + 6]]:15: error: use of undeclared SSA value name %undefined
// CHECK-NEXT:  {{^}}  func.return %undefined : i32
// CHECK-NEXT:  {{^}}              ^
// CHECK-NOT:   {{.}}
func.func @malformed(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  func.return %undefined : i32
}

// MISSING-NOT: Traceback
// MISSING:     error: cannot read '{{.*}}.missing.mlir': No such file or directory
// MISSING-NOT: {{.}}

// FOLDER-NOT:  Traceback
// FOLDER:      error: cannot read '{{.*}}': Is a directory
// FOLDER-NOT:  {{.}}

// PASS-NOT:    Traceback
// PASS:        error: invalid pass pipeline: Unrecognized passes: ['no-such-pass']
// PASS-NOT:    {{.}}

// OPTION-NOT:  Traceback
// OPTION:      error: invalid pass pipeline: {{.*}}not found in expected arguments []
// OPTION-NOT:  {{.}}
