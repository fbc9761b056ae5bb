// The copies of a load loop over a row whose place is known only at run time (the
// row's index %r) share its address arithmetic: base + ((r * 4 + i) * 8) * 2 is
// reassociated into (base + ((r * 4) * 8) * 2) + i * 16, the part the copies have in
// common computed once (as is the row's buffer choice, which each copy computed
// before), so the second vector costs one addition of a constant and its view.

// RUN: ktc-opt %s --arch toy -p unroll-short-loops | filecheck %s

module {
  func.func @rows(%n: index) attributes {grid = [1]} {
    dfir.define_symbol 1 = %n : index
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %rows = dfir.symbol 1 : index
      %l1 = dfir.unit core 0 : !dfir.unit<"L1">
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      %to_lu = dfir.uniform_map [%simd -> %lu] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %lu_to = dfir.uniform_map [%lu -> %simd] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      %lu_l1 = dfir.uniform_map [%lu -> %l1] : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
        %mem = dfir.query %lu_l1 : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
        scf.for %r = %c0 to %rows step %c1 {
          scf.for %i = %c0 to %c2 step %c1 {
            %phase = arith.remsi %r, %c2 : index
            %even = arith.cmpi eq, %phase, %c0 : index
            %base = arith.select %even, %c256, %c512 : index
            %first = arith.muli %r, %c4 : index
            %vector = arith.addi %first, %i : index
            %elements = arith.muli %vector, %c8 : index
            %bytes = arith.muli %elements, %c2 : index
            %at = arith.addi %base, %bytes : index
            %view = dfir.view %mem[%at] : !dfir.unit<"L1"> -> memref<8xf16>
            %v = dfir.load %view[%c0] : memref<8xf16>, vector<8xf16>
            dfir.send %v to %to id 1 : vector<8xf16>, !dfir.unit<"SFU">
          }
        }
      }
      dfir.program "SFU" on (%simd) {
        %in = dfir.query %to_lu : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
        scf.for %r = %c0 to %rows step %c1 {
          scf.for %i = %c0 to %c2 step %c1 {
            %x = dfir.receive from %in id 1 : !dfir.unit<"L1LU"> -> vector<8xf16>
          }
        }
      }
    }
    return
  }
}

// CHECK:      dfir.program "L1LU"
// CHECK:        scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:     %[[PHASE:.+]] = arith.remsi %[[R]], %{{.+}} : index
// CHECK-NEXT:     %[[EVEN:.+]] = arith.cmpi eq, %[[PHASE]], %{{.+}} : index
// CHECK-NEXT:     %[[BASE:.+]] = arith.select %[[EVEN]], %{{.+}}, %{{.+}} : index
// CHECK-NEXT:     %[[FIRST:.+]] = arith.muli %[[R]], %{{.+}} : index
// CHECK-NEXT:     %[[ELEMENTS:.+]] = arith.muli %[[FIRST]], %{{.+}} : index
// CHECK-NEXT:     %[[BYTES:.+]] = arith.muli %[[ELEMENTS]], %{{.+}} : index
// CHECK-NEXT:     %[[ROW:.+]] = arith.addi %[[BASE]], %[[BYTES]] : index
// CHECK-NEXT:     %[[V0:.+]] = dfir.view %{{.+}}[%[[ROW]]]
// CHECK-NEXT:     %[[L0:.+]] = dfir.load %[[V0]]
// CHECK-NEXT:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-NEXT:     %[[AT1:.+]] = arith.addi %[[ROW]], %[[C16]] : index
// CHECK-NEXT:     %[[V1:.+]] = dfir.view %{{.+}}[%[[AT1]]]
// CHECK-NEXT:     %[[L1:.+]] = dfir.load %[[V1]]
// CHECK-NEXT:     dfir.send %[[L0]]
// CHECK-NEXT:     dfir.send %[[L1]]
// CHECK-NEXT:   }
// CHECK-NOT:    arith.remsi
