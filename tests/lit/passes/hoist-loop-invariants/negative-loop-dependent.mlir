// What stays in the loop: a FIFO read, whose operands are all defined before the loop
// but which takes a new vector each time, and work on a value the loop carries or on
// the loop's index.

// RUN: ktc-opt %s --arch toy -p hoist-loop-invariants | filecheck %s

module {
  func.func @carried() attributes {grid = [1]} {
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      %to_lu = dfir.uniform_map [%simd -> %lu] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %lu_to = dfir.uniform_map [%lu -> %simd] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
        %v = arith.constant dense<1.000000e+00> : vector<8xf32>
        scf.for %i = %c0 to %c4 step %c1 {
          dfir.send %v to %to id 1 : vector<8xf32>, !dfir.unit<"SFU">
        }
      }
      dfir.program "SFU" on (%simd) {
        %in = dfir.query %to_lu : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
        %zero = arith.constant dense<0.000000e+00> : vector<8xf32>
        %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (vector<8xf32>) {
          %x = dfir.receive from %in id 1 : !dfir.unit<"L1LU"> -> vector<8xf32>
          %next = dfir.compute <add> %acc, %x : vector<8xf32>
          %twice = dfir.compute <add> %next, %next : vector<8xf32>
          scf.yield %twice : vector<8xf32>
        }
      }
    }
    return
  }
}

// CHECK-LABEL: dfir.program "SFU"
// CHECK:         scf.for
// CHECK-NEXT:      %[[X:.+]] = dfir.receive
// CHECK-NEXT:      %[[NEXT:.+]] = dfir.compute <add> %{{.+}}, %[[X]]
// CHECK-NEXT:      %[[TWICE:.+]] = dfir.compute <add> %[[NEXT]], %[[NEXT]]
// CHECK-NEXT:      scf.yield %[[TWICE]]
