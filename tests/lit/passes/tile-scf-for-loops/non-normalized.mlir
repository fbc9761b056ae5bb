// A candidate nest whose loops do not count from 0 in steps of 1 is normalized
// first, as normalize-scf-for-loops would (not tiled by some other scheme behind
// the user's back): the rows 1, 3, ..., 21 become 11 iterations, tiled by 5; the
// body recomputes 1 + i * 2 from the linearized index.

// RUN: ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=5,3}' | filecheck %s
// RUN: ktc-opt %s -p 'normalize-scf-for-loops,tile-scf-for-loops{tile-sizes=5,3}' | filecheck %s

func.func @odd_rows(%m: memref<23x12xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  %c23 = arith.constant 23 : index
  scf.for %i = %c1 to %c23 step %c2 {
    scf.for %j = %c0 to %c12 step %c1 {
      %v = memref.load %m[%i, %j] : memref<23x12xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @odd_rows(
// CHECK-SAME:      %[[M:[^:]+]]: memref<23x12xf16>)
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C12:.+]] = arith.constant 12 : index
// CHECK:         %[[ROWS:.+]] = arith.constant 11 : index
// CHECK:         %[[C5:.+]] = arith.constant 5 : index
// CHECK-NEXT:    %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[NI:.+]] = arith.ceildivui %[[ROWS]], %[[C5]] : index
// CHECK-NEXT:    %[[NJ:.+]] = arith.ceildivui %[[C12]], %[[C3]] : index
// CHECK-NEXT:    scf.for %[[TI:.+]] = %{{.+}} to %[[NI]] step %{{.+}} {
// CHECK-NEXT:      scf.for %[[TJ:.+]] = %{{.+}} to %[[NJ]] step %{{.+}} {
// CHECK-NEXT:        %[[SI:.+]] = ktdf.tiling.derive_size [%[[TI]] : %[[C5]]], total_size = %[[ROWS]] : index
// CHECK-NEXT:        %[[SJ:.+]] = ktdf.tiling.derive_size [%[[TJ]] : %[[C3]]], total_size = %[[C12]] : index
// CHECK-NEXT:        scf.for %[[PI:.+]] = %{{.+}} to %[[SI]] step %{{.+}} {
// CHECK-NEXT:          scf.for %[[PJ:.+]] = %{{.+}} to %[[SJ]] step %{{.+}} {
// CHECK-NEXT:            %[[I:.+]] = ktdf.tiling.linearize_index [%[[TI]] : %[[C5]]], [%[[PI]] : %{{.+}}] : index
// CHECK-NEXT:            %[[J:.+]] = ktdf.tiling.linearize_index [%[[TJ]] : %[[C3]]], [%[[PJ]] : %{{.+}}] : index
// CHECK-NEXT:            %[[SCALED:.+]] = arith.muli %[[I]], %[[C2]] : index
// CHECK-NEXT:            %[[ROW:.+]] = arith.addi %[[C1]], %[[SCALED]] : index
// CHECK-NEXT:            memref.load %[[M]][%[[ROW]], %[[J]]] : memref<23x12xf16>
