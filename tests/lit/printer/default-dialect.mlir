// An op's dialect prefix is left out where MLIR leaves it out: inside an op whose
// default dialect it is (module and its nested module at the top, `return` and `call`
// in func.func, pdl ops in pdl.pattern and pdl.rewrite), and nowhere else: func.call
// keeps its prefix inside scf.for, builtin ops keep theirs inside func.func.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}

// CHECK:      module {
// CHECK-NEXT:   module @inner {
// CHECK-NEXT:   }
builtin.module @inner {
}

// CHECK-LABEL: func.func @f(
// CHECK:         scf.for
// CHECK-NEXT:      func.call @f(
// CHECK-NEXT:      builtin.unrealized_conversion_cast
// CHECK-NEXT:    }
// CHECK-NEXT:    call @f(
// CHECK-NEXT:    return
func.func @f(%arg0: index, %arg1: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %arg2 = %c0 to %arg0 step %c1 {
    %1 = func.call @f(%arg2, %arg1) : (index, i32) -> i32
    %2 = builtin.unrealized_conversion_cast %1 : i32 to i64
  }
  %0 = func.call @f(%arg0, %arg1) : (index, i32) -> i32
  func.return %0 : i32
}

// CHECK-LABEL: pdl.pattern @p : benefit(1) {
// CHECK-NEXT:    %0 = type
// CHECK-NEXT:    %1 = operation "test.op" -> (%0 : !pdl.type)
// CHECK-NEXT:    rewrite %1 {
// CHECK-NEXT:      %2 = operation "test.new" -> (%0 : !pdl.type)
// CHECK-NEXT:      replace %1 with %2
// CHECK-NEXT:    }
// CHECK-NEXT:  }
pdl.pattern @p : benefit(1) {
  %0 = pdl.type
  %1 = pdl.operation "test.op" -> (%0 : !pdl.type)
  pdl.rewrite %1 {
    %2 = pdl.operation "test.new" -> (%0 : !pdl.type)
    pdl.replace %1 with %2
  }
}
