// SSA values keep the names written in the source and are otherwise named as MLIR
// names them: an unnamed entry block argument is %argN, other unnamed values are
// numbered; a region's values are named before its nested regions, which all
// continue from the same point (so the two branches of an scf.if reuse %u and %2); a
// name taken in an enclosing region gets MLIR's running `_N` suffix (%a_0, %t_1; a
// written `_N` suffix is not part of the name, so %a_7 is a second %a).
// Results that share a name print as one group (%p:2, used as %p#0), results with
// names of their own separately (%q, %s). The printed text reads back unchanged.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s

func.func @names(%x: i32, %0: i32, %c: i1) -> i32 {
  %a = arith.addi %x, %0 : i32
  %a_7 = arith.addi %a, %a : i32
  %1 = arith.muli %a, %a_7 : i32
  %t = scf.if %c -> (i32) {
    %t = arith.addi %1, %1 : i32
    %u = arith.addi %t, %t : i32
    scf.yield %u : i32
  } else {
    %u = arith.subi %1, %1 : i32
    %2 = arith.muli %u, %u : i32
    scf.yield %2 : i32
  }
  %p:2 = scf.if %c -> (i32, i32) {
    scf.yield %t, %t : i32, i32
  } else {
    scf.yield %a, %a : i32, i32
  }
  %q, %s = scf.if %c -> (i32, i32) {
    scf.yield %p#0, %p#1 : i32, i32
  } else {
    scf.yield %p#1, %p#0 : i32, i32
  }
  %3 = arith.addi %q, %s : i32
  return %3 : i32
}

// CHECK-LABEL: func.func @names(%x: i32, %arg0: i32, %c: i1) -> i32 {
// CHECK-NEXT:     %a = arith.addi %x, %arg0 : i32
// CHECK-NEXT:     %a_0 = arith.addi %a, %a : i32
// CHECK-NEXT:     %0 = arith.muli %a, %a_0 : i32
// CHECK-NEXT:     %t = scf.if %c -> (i32) {
// CHECK-NEXT:       %t_1 = arith.addi %0, %0 : i32
// CHECK-NEXT:       %u = arith.addi %t_1, %t_1 : i32
// CHECK-NEXT:       scf.yield %u : i32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %u = arith.subi %0, %0 : i32
// CHECK-NEXT:       %2 = arith.muli %u, %u : i32
// CHECK-NEXT:       scf.yield %2 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %p:2 = scf.if %c -> (i32, i32) {
// CHECK-NEXT:       scf.yield %t, %t : i32, i32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %a, %a : i32, i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %q, %s = scf.if %c -> (i32, i32) {
// CHECK-NEXT:       scf.yield %p#0, %p#1 : i32, i32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %p#1, %p#0 : i32, i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %1 = arith.addi %q, %s : i32
// CHECK-NEXT:     return %1 : i32
// CHECK-NEXT:   }
