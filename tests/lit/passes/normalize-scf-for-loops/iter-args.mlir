// A loop carrying a sum keeps its iter_args and results when it is normalized: it
// runs from 0 to 5 (the old 4 to 14 in steps of 2), and its body reads element
// 4 + i * 2.

// RUN: ktc-opt %s -p normalize-scf-for-loops | filecheck %s

func.func @sum(%m: memref<16xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %r = scf.for %i = %c4 to %c14 step %c2 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %m[%i] : memref<16xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  func.return %r : f32
}

// CHECK-LABEL: func.func @sum(
// CHECK-SAME:      %[[M:[^:]+]]: memref<16xf32>) -> f32
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[LB:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.+]] = arith.constant 5 : index
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[R:.+]] = scf.for %[[I:.+]] = %[[LB]] to %[[N]] step %[[ONE]] iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:      %[[SCALED:.+]] = arith.muli %[[I]], %[[C2]] : index
// CHECK-NEXT:      %[[II:.+]] = arith.addi %[[C4]], %[[SCALED]] : index
// CHECK-NEXT:      %[[V:.+]] = memref.load %[[M]][%[[II]]] : memref<16xf32>
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    return %[[R]] : f32
