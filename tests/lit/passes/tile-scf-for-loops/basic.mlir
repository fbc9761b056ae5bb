// IBM's custom normalized tiling of a 23 x 12 nest by 5 x 3: tile loops run to
// ceildivui(23, 5) and ceildivui(12, 3), point loops to the derive_size of their
// tile (5 or the remainder 3, and 3), and the body sees the original indices as
// linearize_index of tile and point index.

// RUN: ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=5,3}' | filecheck %s
// RUN: %if mlir %{ ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=5,3}' --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s --check-prefix=MLIR %}

func.func @tile_2d(%m: memref<23x12xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c23 = arith.constant 23 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c23 step %c1 {
    scf.for %j = %c0 to %c12 step %c1 {
      %s = arith.addi %i, %j : index
      memref.store %s, %m[%i, %j] : memref<23x12xindex>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @tile_2d(
// CHECK-SAME:      %[[M:[^:]+]]: memref<23x12xindex>)
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C23:.+]] = arith.constant 23 : index
// CHECK-NEXT:    %[[C12:.+]] = arith.constant 12 : index
// CHECK-NEXT:    %[[C5:.+]] = arith.constant 5 : index
// CHECK-NEXT:    %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[NI:.+]] = arith.ceildivui %[[C23]], %[[C5]] : index
// CHECK-NEXT:    %[[NJ:.+]] = arith.ceildivui %[[C12]], %[[C3]] : index
// CHECK-NEXT:    scf.for %[[TI:.+]] = %[[C0]] to %[[NI]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[TJ:.+]] = %[[C0]] to %[[NJ]] step %[[C1]] {
// CHECK-NEXT:        %[[TSI:.+]] = ktdf.tiling.derive_size [%[[TI]] : %[[C5]]], total_size = %[[C23]] : index
// CHECK-NEXT:        %[[TSJ:.+]] = ktdf.tiling.derive_size [%[[TJ]] : %[[C3]]], total_size = %[[C12]] : index
// CHECK-NEXT:        scf.for %[[PI:.+]] = %[[C0]] to %[[TSI]] step %[[C1]] {
// CHECK-NEXT:          scf.for %[[PJ:.+]] = %[[C0]] to %[[TSJ]] step %[[C1]] {
// CHECK-NEXT:            %[[I:.+]] = ktdf.tiling.linearize_index [%[[TI]] : %[[C5]]], [%[[PI]] : %[[C1]]] : index
// CHECK-NEXT:            %[[J:.+]] = ktdf.tiling.linearize_index [%[[TJ]] : %[[C3]]], [%[[PJ]] : %[[C1]]] : index
// CHECK-NEXT:            %[[S:.+]] = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:            memref.store %[[S]], %[[M]][%[[I]], %[[J]]] : memref<23x12xindex>
// CHECK-NEXT:          } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:        } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}

// Real MLIR accepts the tiled nest (the ktdf ops as unregistered ops).
// MLIR-LABEL: func.func @tile_2d(
// MLIR:         %[[NI:.+]] = arith.ceildivui
// MLIR:         scf.for %[[TI:.+]] = %{{.+}} to %[[NI]] step
// MLIR:           ktdf.tiling.derive_size [%[[TI]] : %{{.+}}], total_size = %{{.+}} : index
// MLIR:               ktdf.tiling.linearize_index [%[[TI]] : %{{.+}}], [%{{.+}} : %{{.+}}] : index
