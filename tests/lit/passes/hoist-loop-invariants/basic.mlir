// An SIMD program's work that no iteration of its loop over a row's vectors changes
// (the row's value splatted, scaled and put through rsqrt) runs once before the loop:
// the loop then reads one vector from outside (the scale) instead of one (the row's
// value). A constant that only an op staying in the loop reads stays beside it, as
// does the load unit's constant it sends: moved, each would be one more vector the
// loop holds from outside.

// RUN: ktc-opt %s --arch toy -p hoist-loop-invariants | filecheck %s

module {
  func.func @scale() attributes {grid = [1]} {
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      %su = dfir.unit core 0 : !dfir.unit<"L1SU">
      %to_lu = dfir.uniform_map [%simd -> %lu] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %to_su = dfir.uniform_map [%simd -> %su] : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
      %lu_to = dfir.uniform_map [%lu -> %simd] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      %su_from = dfir.uniform_map [%su -> %simd] : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
        scf.for %i = %c0 to %c4 step %c1 {
          %v = arith.constant dense<1.000000e+00> : vector<8xf16>
          dfir.send %v to %to id 1 : vector<8xf16>, !dfir.unit<"SFU">
        }
      }
      dfir.program "SFU" on (%simd) {
        %in = dfir.query %to_lu : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
        %out = dfir.query %to_su : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
        %row = arith.constant dense<4.000000e+00> : vector<1xf16>
        scf.for %i = %c0 to %c4 step %c1 {
          %x = dfir.receive from %in id 1 : !dfir.unit<"L1LU"> -> vector<8xf16>
          %splat = dfir.splat %row : vector<1xf16> -> vector<8xf16>
          %half = arith.constant dense<5.000000e-01> : vector<8xf16>
          %scaled = dfir.compute <mul> %splat, %half : vector<8xf16>
          %r = dfir.compute <rsqrt> %scaled : vector<8xf16>
          %again = arith.constant dense<2.000000e+00> : vector<8xf16>
          %y = dfir.compute <mul> %x, %r : vector<8xf16>
          %z = dfir.compute <mul> %y, %again : vector<8xf16>
          dfir.send %z to %out id 2 : vector<8xf16>, !dfir.unit<"L1SU">
        }
      }
      dfir.program "L1SU" on (%su) {
        %from = dfir.query %su_from : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
        scf.for %i = %c0 to %c4 step %c1 {
          %v = dfir.receive from %from id 2 : !dfir.unit<"SFU"> -> vector<8xf16>
        }
      }
    }
    return
  }
}

// CHECK-LABEL: dfir.program "L1LU"
// CHECK:          scf.for
// CHECK-NEXT:       %[[ONE:.+]] = arith.constant dense<1.000000e+00> : vector<8xf16>
// CHECK-NEXT:       dfir.send %[[ONE]]
// CHECK-LABEL: dfir.program "SFU"
// CHECK:          %[[ROW:.+]] = arith.constant dense<4.000000e+00> : vector<1xf16>
// CHECK-NEXT:     %[[SPLAT:.+]] = dfir.splat %[[ROW]] : vector<1xf16> -> vector<8xf16>
// CHECK-NEXT:     %[[HALF:.+]] = arith.constant dense<5.000000e-01> : vector<8xf16>
// CHECK-NEXT:     %[[SCALED:.+]] = dfir.compute <mul> %[[SPLAT]], %[[HALF]]
// CHECK-NEXT:     %[[R:.+]] = dfir.compute <rsqrt> %[[SCALED]]
// CHECK-NEXT:     scf.for
// CHECK-NEXT:       %[[X:.+]] = dfir.receive
// CHECK-NEXT:       %[[TWO:.+]] = arith.constant dense<2.000000e+00> : vector<8xf16>
// CHECK-NEXT:       %[[Y:.+]] = dfir.compute <mul> %[[X]], %[[R]]
// CHECK-NEXT:       %[[Z:.+]] = dfir.compute <mul> %[[Y]], %[[TWO]]
// CHECK-NEXT:       dfir.send %[[Z]]
// CHECK-NEXT:     }
