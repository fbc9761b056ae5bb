// A load unit's loop over a row's 4 vectors, the SIMD engine's loop receiving them
// (summing into a carried vector) and the store unit's loop writing the results are
// unrolled together: each copy's FIFO pair takes an id of its own at both ends, the
// first copy keeping the pair's; the carried sum threads from copy to copy; each
// vector's offset (0 + i * 8 * 2) folds into a constant (the first the dataflow
// region's 0, which the program reads already; the others defined where they are
// used); and each FIFO write of a loaded vector follows the next load, so that load
// is issued while the vector before it is on its way.

// RUN: ktc-opt %s --arch toy -p unroll-short-loops | filecheck %s

module {
  func.func @row() attributes {grid = [1]} {
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %l1 = dfir.unit core 0 : !dfir.unit<"L1">
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      %su = dfir.unit core 0 : !dfir.unit<"L1SU">
      %to_lu = dfir.uniform_map [%simd -> %lu] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %to_su = dfir.uniform_map [%simd -> %su] : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
      %lu_to = dfir.uniform_map [%lu -> %simd] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      %su_from = dfir.uniform_map [%su -> %simd] : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
      %lu_l1 = dfir.uniform_map [%lu -> %l1] : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
      %su_l1 = dfir.uniform_map [%su -> %l1] : !dfir.uniform<"L1SU", !dfir.unit<"L1">>
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
        %mem = dfir.query %lu_l1 : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
        scf.for %i = %c0 to %c4 step %c1 {
          %elements = arith.muli %i, %c8 : index
          %bytes = arith.muli %elements, %c2 : index
          %at = arith.addi %c0, %bytes : index
          %view = dfir.view %mem[%at] : !dfir.unit<"L1"> -> memref<8xf16>
          %v = dfir.load %view[%c0] : memref<8xf16>, vector<8xf16>
          dfir.send %v to %to id 1 : vector<8xf16>, !dfir.unit<"SFU">
        }
      }
      dfir.program "SFU" on (%simd) {
        %in = dfir.query %to_lu : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
        %out = dfir.query %to_su : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
        %zero = arith.constant dense<0.000000e+00> : vector<8xf16>
        %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (vector<8xf16>) {
          %x = dfir.receive from %in id 1 : !dfir.unit<"L1LU"> -> vector<8xf16>
          %next = dfir.compute <add> %acc, %x : vector<8xf16>
          dfir.send %next to %out id 2 : vector<8xf16>, !dfir.unit<"L1SU">
          scf.yield %next : vector<8xf16>
        }
      }
      dfir.program "L1SU" on (%su) {
        %from = dfir.query %su_from : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
        %mem = dfir.query %su_l1 : !dfir.uniform<"L1SU", !dfir.unit<"L1">>
        scf.for %i = %c0 to %c4 step %c1 {
          %v = dfir.receive from %from id 2 : !dfir.unit<"SFU"> -> vector<8xf16>
          %elements = arith.muli %i, %c8 : index
          %bytes = arith.muli %elements, %c2 : index
          %at = arith.addi %c64, %bytes : index
          %view = dfir.view %mem[%at] : !dfir.unit<"L1"> -> memref<8xf16>
          dfir.store %v, %view[%c0] : memref<8xf16>, vector<8xf16>
        }
      }
    }
    return
  }
}

// CHECK:      %[[C0:.+]] = arith.constant 0 : index
// CHECK:      dfir.program "L1LU"
// CHECK-NOT:    scf.for
// CHECK:        %[[V0:.+]] = dfir.view %{{.+}}[%[[C0]]]
// CHECK-NEXT:   %[[L0:.+]] = dfir.load %[[V0]]
// CHECK-NEXT:   %[[C16:.+]] = arith.constant 16 : index
// CHECK-NEXT:   %[[V1:.+]] = dfir.view %{{.+}}[%[[C16]]]
// CHECK-NEXT:   %[[L1:.+]] = dfir.load %[[V1]]
// CHECK-NEXT:   dfir.send %[[L0]] to %{{.+}} id 1 :
// CHECK-NEXT:   %[[C32:.+]] = arith.constant 32 : index
// CHECK-NEXT:   %[[V2:.+]] = dfir.view %{{.+}}[%[[C32]]]
// CHECK-NEXT:   %[[L2:.+]] = dfir.load %[[V2]]
// CHECK-NEXT:   dfir.send %[[L1]] to %{{.+}} id [[ID1:[0-9]+]] :
// CHECK-NEXT:   %[[C48:.+]] = arith.constant 48 : index
// CHECK-NEXT:   %[[V3:.+]] = dfir.view %{{.+}}[%[[C48]]]
// CHECK-NEXT:   %[[L3:.+]] = dfir.load %[[V3]]
// CHECK-NEXT:   dfir.send %[[L2]] to %{{.+}} id [[ID2:[0-9]+]] :
// CHECK-NEXT:   dfir.send %[[L3]] to %{{.+}} id [[ID3:[0-9]+]] :
// CHECK-NEXT: }

// CHECK:      dfir.program "SFU"
// CHECK-NOT:    scf.for
// CHECK:        %[[X0:.+]] = dfir.receive from %{{.+}} id 1 :
// CHECK-NEXT:   %[[S0:.+]] = dfir.compute <add> %[[ZERO:.+]], %[[X0]]
// CHECK-NEXT:   dfir.send %[[S0]] to %{{.+}} id 2 :
// CHECK-NEXT:   %[[X1:.+]] = dfir.receive from %{{.+}} id [[ID1]] :
// CHECK-NEXT:   %[[S1:.+]] = dfir.compute <add> %[[S0]], %[[X1]]
// CHECK-NEXT:   dfir.send %[[S1]] to %{{.+}} id [[OUT1:[0-9]+]] :
// CHECK-NEXT:   %[[X2:.+]] = dfir.receive from %{{.+}} id [[ID2]] :
// CHECK-NEXT:   %[[S2:.+]] = dfir.compute <add> %[[S1]], %[[X2]]
// CHECK-NEXT:   dfir.send %[[S2]] to %{{.+}} id [[OUT2:[0-9]+]] :
// CHECK-NEXT:   %[[X3:.+]] = dfir.receive from %{{.+}} id [[ID3]] :
// CHECK-NEXT:   %[[S3:.+]] = dfir.compute <add> %[[S2]], %[[X3]]
// CHECK-NEXT:   dfir.send %[[S3]] to %{{.+}} id [[OUT3:[0-9]+]] :
// CHECK-NEXT: }

// CHECK:      dfir.program "L1SU"
// CHECK-NOT:    scf.for
// CHECK:        dfir.receive from %{{.+}} id 2 :
// CHECK:        dfir.view %{{.+}}[%[[C64:.+]]]
// CHECK:        dfir.receive from %{{.+}} id [[OUT1]] :
// CHECK:        dfir.receive from %{{.+}} id [[OUT2]] :
// CHECK:        dfir.receive from %{{.+}} id [[OUT3]] :
// CHECK-NOT:    scf.for
