// Normalizing twice is normalizing once: the second run finds every loop already
// counting from 0 in steps of 1 and changes nothing, loops that were normalized
// on input included.

// RUN: ktc-opt %s -p normalize-scf-for-loops > %t.once
// RUN: ktc-opt %t.once -p normalize-scf-for-loops | diff %t.once -
// RUN: ktc-opt %s -p normalize-scf-for-loops,normalize-scf-for-loops | diff %t.once -
// RUN: filecheck %s < %t.once

func.func @mixed(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xf32>
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %j = %c1 to %n step %c4 {
    %w = memref.load %m[%j] : memref<?xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:      %[[N:[^:]+]]: index, %[[M:[^:]+]]: memref<?xf32>)
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      memref.load %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         %[[EXTENT:.+]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:    %[[TRIPS:.+]] = arith.ceildivsi %[[EXTENT]], %[[C4]] : index
// CHECK:         scf.for %[[J:.+]] = %{{.+}} to %[[TRIPS]] step %{{.+}} {
