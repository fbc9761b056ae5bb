// ktc-opt takes MLIR's spellings of its flags: single-dash long options
// (-split-input-file, -verify-diagnostics), the --mlir-* aliases, a pass named as a
// flag (-cse), and --pass-pipeline='builtin.module(...)'; all give what ktc-opt's own
// spellings give. A pipeline nested under another anchor is refused with a reason.

// RUN: ktc-opt %s -p cse --print-op-generic > %t.own
// RUN: ktc-opt %s -cse -mlir-print-op-generic > %t.dash
// RUN: diff %t.own %t.dash
// RUN: ktc-opt %s --pass-pipeline='builtin.module(cse)' --mlir-print-op-generic > %t.pipeline
// RUN: diff %t.own %t.pipeline
// RUN: ktc-opt %s -pass-pipeline=builtin.module(cse) -split-input-file -verify-diagnostics | filecheck %s
// RUN: ktc-opt %s -p cse --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: not ktc-opt %s --pass-pipeline='builtin.module(func.func(cse))' 2>&1 | filecheck %s --check-prefix=NESTED

func.func @twice(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  func.return %d : i32
}

// CHECK:      %b = arith.addi %a, %a : i32
// CHECK-NEXT: %d = arith.muli %b, %b : i32

// DUMP: // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //

// NESTED: error: invalid pass pipeline: 'builtin.module(func.func(cse))' nests 'func.func(': ktc-opt runs module passes, on the whole module
