// A loop stays when its FIFO pairs cannot be renamed copy by copy at both ends: here
// the SIMD engine receives the load unit's 4 vectors in 2 trips of a loop of 2, so
// the k-th copy of the one loop is not the k-th of the other, and both stay (the
// store unit's loop of 4, which pairs with the SIMD engine's inner loop, too).
// The load unit's writes still move past the next load of its body.

// RUN: ktc-opt %s --arch toy -p unroll-short-loops | filecheck %s

module {
  func.func @mismatch() attributes {grid = [1]} {
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %l1 = dfir.unit core 0 : !dfir.unit<"L1">
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      %su = dfir.unit core 0 : !dfir.unit<"L1SU">
      %to_lu = dfir.uniform_map [%simd -> %lu] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %to_su = dfir.uniform_map [%simd -> %su] : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
      %lu_to = dfir.uniform_map [%lu -> %simd] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      %su_from = dfir.uniform_map [%su -> %simd] : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
      %lu_l1 = dfir.uniform_map [%lu -> %l1] : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
        %mem = dfir.query %lu_l1 : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
        scf.for %i = %c0 to %c4 step %c1 {
          %at = arith.muli %i, %c16 : index
          %view = dfir.view %mem[%at] : !dfir.unit<"L1"> -> memref<16xf16>
          %a = dfir.load %view[%c0] : memref<16xf16>, vector<8xf16>
          dfir.send %a to %to id 1 : vector<8xf16>, !dfir.unit<"SFU">
          %b = dfir.load %view[%c0] : memref<16xf16>, vector<8xf16>
          dfir.send %b to %to id 3 : vector<8xf16>, !dfir.unit<"SFU">
        }
      }
      dfir.program "SFU" on (%simd) {
        %in = dfir.query %to_lu : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
        %out = dfir.query %to_su : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
        scf.for %i = %c0 to %c2 step %c1 {
          scf.for %j = %c0 to %c2 step %c1 {
            %x = dfir.receive from %in id 1 : !dfir.unit<"L1LU"> -> vector<8xf16>
            %y = dfir.receive from %in id 3 : !dfir.unit<"L1LU"> -> vector<8xf16>
            dfir.send %x to %out id 2 : vector<8xf16>, !dfir.unit<"L1SU">
          }
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

// CHECK:      dfir.program "L1LU"
// CHECK:        scf.for
// CHECK:          %[[A:.+]] = dfir.load
// CHECK-NEXT:     %[[B:.+]] = dfir.load
// CHECK-NEXT:     dfir.send %[[A]] to %{{.+}} id 1 :
// CHECK-NEXT:     dfir.send %[[B]] to %{{.+}} id 3 :
// CHECK:      dfir.program "SFU"
// CHECK:        scf.for
// CHECK:          scf.for
// CHECK:      dfir.program "L1SU"
// CHECK:        scf.for
