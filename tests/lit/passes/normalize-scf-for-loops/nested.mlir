// A nest of loops that start at 2 and 1 and step by 3 and 1: both count from 0,
// their trip counts (3 and 9) are computed above the outer loop so the nest stays
// perfect, and each index is recomputed once in the block that uses it, before
// its first use there.

// RUN: ktc-opt %s -p normalize-scf-for-loops | filecheck %s

func.func @nested(%m: memref<100xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c2 to %c10 step %c3 {
    scf.for %j = %c1 to %c10 step %c1 {
      %k = arith.addi %i, %j : index
      %v = memref.load %m[%k] : memref<100xf32>
      memref.store %v, %m[%i] : memref<100xf32>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @nested(
// CHECK-SAME:      %[[M:[^:]+]]: memref<100xf32>)
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:    %{{.+}} = arith.constant 10 : index
// CHECK-NEXT:    %[[Z0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N0:.+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[O0:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Z1:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N1:.+]] = arith.constant 9 : index
// CHECK-NEXT:    %[[O1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[Z0]] to %[[N0]] step %[[O0]] {
// CHECK-NEXT:      scf.for %[[J:.+]] = %[[Z1]] to %[[N1]] step %[[O1]] {
// CHECK-NEXT:        %[[SCALED:.+]] = arith.muli %[[I]], %[[C3]] : index
// CHECK-NEXT:        %[[II:.+]] = arith.addi %[[C2]], %[[SCALED]] : index
// CHECK-NEXT:        %[[JJ:.+]] = arith.addi %[[C1]], %[[J]] : index
// CHECK-NEXT:        %[[K:.+]] = arith.addi %[[II]], %[[JJ]] : index
// CHECK-NEXT:        %[[V:.+]] = memref.load %[[M]][%[[K]]] : memref<100xf32>
// CHECK-NEXT:        memref.store %[[V]], %[[M]][%[[II]]] : memref<100xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
