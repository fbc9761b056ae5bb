// --time-passes (MLIR's --mlir-timing) prints on stderr a table of the wall time of
// parsing, verifying, each pass of the pipeline (named as it was given) and printing,
// with each share of the total, as MLIR's execution time report does.

// RUN: ktc-opt %s -p cse,canonicalize --time-passes 2>&1 >/dev/null | filecheck %s
// RUN: ktc-opt %s -p cse,canonicalize --mlir-timing 2>&1 >/dev/null | filecheck %s

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  func.return %b : i32
}

// CHECK:      Execution time report
// CHECK:        Total Execution Time: {{[0-9.]+}} seconds
// CHECK:        ----Wall Time----  ----Name----
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Verifier
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  cse
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  canonicalize
// CHECK-NEXT:   {{ *[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// CHECK-NEXT:   {{ *[0-9.]+}} (100.0%)  Total
