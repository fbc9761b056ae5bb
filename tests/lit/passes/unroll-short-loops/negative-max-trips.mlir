// A loop of more trips than max-trips, or whose copies would hold more than max-ops
// ops, stays a loop: the SIMD engine's loop of 4 folding a carried vector unrolls with
// the defaults, not with max-trips=2 nor with max-ops=7 (4 copies of 2 ops).

// RUN: ktc-opt %s --arch toy -p unroll-short-loops | filecheck %s --check-prefix=UNROLLED
// RUN: ktc-opt %s --arch toy -p 'unroll-short-loops{max-trips=2}' | filecheck %s --check-prefix=KEPT
// RUN: ktc-opt %s --arch toy -p 'unroll-short-loops{max-ops=7}' | filecheck %s --check-prefix=KEPT

module {
  func.func @fold() attributes {grid = [1]} {
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      dfir.program "SFU" on (%simd) {
        %one = arith.constant dense<1.000000e+00> : vector<8xf16>
        %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %one) -> (vector<8xf16>) {
          %twice = dfir.compute <add> %acc, %acc : vector<8xf16>
          %next = dfir.compute <mul> %twice, %one : vector<8xf16>
          scf.yield %next : vector<8xf16>
        }
      }
    }
    return
  }
}

// UNROLLED-NOT: scf.for
// UNROLLED-COUNT-4: dfir.compute <mul>
// UNROLLED-NOT: scf.for

// KEPT: scf.for
// KEPT-COUNT-1: dfir.compute <mul>
// KEPT-NOT: dfir.compute <mul>
