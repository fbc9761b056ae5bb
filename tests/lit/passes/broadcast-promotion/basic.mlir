// The row vector b of examples/broadcast_add.mlir is the same for every row: after
// stage coarsening its DDR -> L1 transfer moves one vector per row and column
// vector, inside the loop over column tiles, inside the loop over row tiles.
// Broadcast promotion moves it once, before the row loop: the column tile and point
// loops are carried as the one loop over all 16 vectors of the row, whose transfers
// lie side by side and become one transfer of all 128 elements into a buffer
// holding the whole row vector. The L1 load unit reads that buffer at the column
// index, linearize_index of the column tile and its vector.

// RUN: ktc-opt %S/../../../../examples/broadcast_add.mlir -p 'ktir-to-schedule,stage-coarsening,broadcast-promotion,verify-schedule' --arch toy > %t
// RUN: filecheck %s < %t
// RUN: grep -c 'data_transfer from %b_tile' %t | filecheck %s --check-prefix=ONCE

// ONCE: 1

// CHECK:      %[[B:b_tile]] = memref.reinterpret_cast %b_view
// CHECK:      %[[TS:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT: %[[CS:.*]] = ktdf.tiling.reserve_size
// CHECK:      %[[H:.*]] = memref.alloc() : memref<1x16x8xf16, "L1">
// CHECK-NEXT: ktdf.pipeline {
// CHECK-NEXT:   ktdf.stage depends_in(none) depends_out(none) {
// CHECK:          ktdf.data_transfer from %[[B]][%{{.*}}] size [128] to %[[H]][0, 0, 0] size [1, 16, 8]
// CHECK-NEXT:   } {applicable_units = ["MNILU"]}
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   scf.for %[[COLS:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          ktdf.pipeline {
// CHECK-NEXT:       ktdf.private -> (memref<?x?x1x8xf16, "L1">, memref<?x?x1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:            } {applicable_units = ["MNILU"]}
// CHECK-NEXT:       ktdf.stage depends_in(%{{.*}}) depends_out(%{{.*}}) {
// CHECK-NEXT:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:           scf.for %[[V:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:             ktdf.pipeline {
// CHECK:                  %[[COL:.*]] = ktdf.tiling.linearize_index [%[[COLS]] : %[[CS]]], [%[[V]] : %{{.*}}] : index
// CHECK-NEXT:             ktdf.data_transfer from %[[H]][0, %[[COL]], 0] size [1, 1, 8] to %{{.*}} size [8]
// CHECK-NEXT:           } {applicable_units = ["L1LU"]}
