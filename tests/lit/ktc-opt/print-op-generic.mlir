// --print-op-generic prints every op in MLIR's generic form: quoted name, operands,
// properties in <{...}>, regions with their entry block arguments, and the function
// type; the generic text reads back to the same custom form.

// RUN: ktc-opt %s --print-op-generic | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s --check-prefix=CUSTOM

func.func @double_n_times(%n: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %next = arith.addf %acc, %acc : f32
    scf.yield %next : f32
  }
  func.return %r : f32
}

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{function_type = (index, f32) -> f32, sym_name = "double_n_times"}> ({
// CHECK-NEXT:   ^bb0(%n: index, %init: f32):
// CHECK-NEXT:     %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
// CHECK-NEXT:     %c1 = "arith.constant"() <{value = 1 : index}> : () -> index
// CHECK-NEXT:     %r = "scf.for"(%c0, %n, %c1, %init) ({
// CHECK-NEXT:     ^bb0(%i: index, %acc: f32):
// CHECK-NEXT:       %next = "arith.addf"(%acc, %acc) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT:       "scf.yield"(%next) : (f32) -> ()
// CHECK-NEXT:     }) : (index, index, index, f32) -> f32
// CHECK-NEXT:     "func.return"(%r) : (f32) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) : () -> ()

// CUSTOM:      func.func @double_n_times(%n: index, %init: f32) -> f32 {
// CUSTOM-NEXT:   %c0 = arith.constant 0 : index
// CUSTOM-NEXT:   %c1 = arith.constant 1 : index
// CUSTOM-NEXT:   %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
// CUSTOM-NEXT:     %next = arith.addf %acc, %acc : f32
// CUSTOM-NEXT:     scf.yield %next : f32
// CUSTOM-NEXT:   }
// CUSTOM-NEXT:   return %r : f32
