// The second product accumulates into other accumulators (64 bytes on): its load reads
// what the first did not store, so both stores and both loads stay.

// RUN: ktc-opt %s --arch spyre -p chain-matrix-products | filecheck %s

// CHECK:      dfir.program "PT"
// CHECK:        dfir.load
// CHECK:        %[[FIRST:.+]] = dfir.matmul
// CHECK:        dfir.store %[[FIRST]]
// CHECK:        %[[ACC:.+]] = dfir.load
// CHECK-NEXT:   dfir.matmul %{{.+}}, %{{.+}}, %[[ACC]]
// CHECK:        dfir.store

module {
  func.func @block() attributes {grid = [1]} {
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %l1 = dfir.unit core 0 : !dfir.unit<"L1">
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %pt = dfir.unit core 0 : !dfir.unit<"PT">
      %acc = dfir.unit core 0 : !dfir.unit<"PT_ACC">
      %lu_to = dfir.uniform_map [%lu -> %pt] : !dfir.uniform<"L1LU", !dfir.unit<"PT">>
      %pt_from = dfir.uniform_map [%pt -> %lu] : !dfir.uniform<"PT", !dfir.unit<"L1LU">>
      %lu_l1 = dfir.uniform_map [%lu -> %l1] : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
      %pt_acc = dfir.uniform_map [%pt -> %acc] : !dfir.uniform<"PT", !dfir.unit<"PT_ACC">>
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"PT">>
        %mem = dfir.query %lu_l1 : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
        %view = dfir.view %mem[%c0] : !dfir.unit<"L1"> -> memref<16xf16>
        %v = dfir.load %view[%c0] : memref<16xf16>, vector<16xf16>
        dfir.send %v to %to id 1 : vector<16xf16>, !dfir.unit<"PT">
        dfir.send %v to %to id 2 : vector<16xf16>, !dfir.unit<"PT">
        dfir.send %v to %to id 3 : vector<16xf16>, !dfir.unit<"PT">
        dfir.send %v to %to id 4 : vector<16xf16>, !dfir.unit<"PT">
      }
      dfir.program "PT" on (%pt) {
        %from = dfir.query %pt_from : !dfir.uniform<"PT", !dfir.unit<"L1LU">>
        %mem = dfir.query %pt_acc : !dfir.uniform<"PT", !dfir.unit<"PT_ACC">>
        %a0 = dfir.receive from %from id 1 : !dfir.unit<"L1LU"> -> vector<16xf16>
        %b0 = dfir.receive from %from id 2 : !dfir.unit<"L1LU"> -> vector<16xf16>
        %in0 = dfir.view %mem[%c0] : !dfir.unit<"PT_ACC"> -> memref<4xf32>
        %acc0 = dfir.load %in0[%c0] : memref<4xf32>, vector<4xf32>
        %p0 = dfir.matmul %a0, %b0, %acc0 [2, 8, 2] : vector<16xf16>, vector<16xf16> -> vector<4xf32>
        %out0 = dfir.view %mem[%c0] : !dfir.unit<"PT_ACC"> -> memref<4xf32>
        dfir.store %p0, %out0[%c0] : memref<4xf32>, vector<4xf32>
        %a1 = dfir.receive from %from id 3 : !dfir.unit<"L1LU"> -> vector<16xf16>
        %b1 = dfir.receive from %from id 4 : !dfir.unit<"L1LU"> -> vector<16xf16>
        %in1 = dfir.view %mem[%c64] : !dfir.unit<"PT_ACC"> -> memref<4xf32>
        %acc1 = dfir.load %in1[%c0] : memref<4xf32>, vector<4xf32>
        %p1 = dfir.matmul %a1, %b1, %acc1 [2, 8, 2] : vector<16xf16>, vector<16xf16> -> vector<4xf32>
        %out1 = dfir.view %mem[%c64] : !dfir.unit<"PT_ACC"> -> memref<4xf32>
        dfir.store %p1, %out1[%c0] : memref<4xf32>, vector<4xf32>
      }
    }
    return
  }
}
