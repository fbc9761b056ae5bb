// Bounds known only at run time: the trip count is ceildivsi(ub - lb, step),
// computed above the enclosing loop, which does not define any of them; a loop
// whose bounds come from that enclosing loop gets its count inside it. A loop
// with a constant step of 1 needs no division, one starting at 0 no subtraction.

// RUN: ktc-opt %s -p normalize-scf-for-loops | filecheck %s

func.func @dynamic(%lb: index, %ub: index, %step: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %ub step %c1 {
    scf.for %j = %lb to %ub step %step {
      %v = memref.load %m[%j] : memref<?xf32>
    }
    scf.for %k = %i to %ub step %c1 {
      %w = memref.load %m[%k] : memref<?xf32>
    }
  }
  scf.for %l = %c0 to %ub step %step {
    %u = memref.load %m[%l] : memref<?xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[LB:[^:]+]]: index, %[[UB:[^:]+]]: index, %[[STEP:[^:]+]]: index, %[[M:[^:]+]]: memref<?xf32>)
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    %[[Z:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[EXTENT:.+]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT:    %[[N:.+]] = arith.ceildivsi %[[EXTENT]], %[[STEP]] : index
// CHECK-NEXT:    %[[O:.+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %{{.+}} to %[[UB]] step %{{.+}} {
// CHECK-NEXT:      scf.for %[[J:.+]] = %[[Z]] to %[[N]] step %[[O]] {
// CHECK-NEXT:        %[[SCALED:.+]] = arith.muli %[[J]], %[[STEP]] : index
// CHECK-NEXT:        %[[JJ:.+]] = arith.addi %[[LB]], %[[SCALED]] : index
// CHECK-NEXT:        memref.load %[[M]][%[[JJ]]] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[Z2:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[N2:.+]] = arith.subi %[[UB]], %[[I]] : index
// CHECK-NEXT:      %[[O2:.+]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[K:.+]] = %[[Z2]] to %[[N2]] step %[[O2]] {
// CHECK-NEXT:        %[[KK:.+]] = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT:        memref.load %[[M]][%[[KK]]] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.+}} = arith.constant 0 : index
// CHECK-NEXT:    %[[N3:.+]] = arith.ceildivsi %[[UB]], %[[STEP]] : index
// CHECK-NEXT:    %{{.+}} = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[L:.+]] = %{{.+}} to %[[N3]] step %{{.+}} {
// CHECK-NEXT:      %[[LL:.+]] = arith.muli %[[L]], %[[STEP]] : index
// CHECK-NEXT:      memref.load %[[M]][%[[LL]]] : memref<?xf32>
