// The weight of examples/rmsnorm.mlir is the same for every row: after stage
// coarsening its DDR -> L1 transfer sits in the load stage's row loop, inside the
// loop over row tiles. Broadcast promotion moves it once, in a sibling pipeline
// before the tile loop, into a buffer that is no longer expanded over the rows;
// the L1 load unit reads that buffer on every row.

// RUN: ktc-opt %S/../../../../examples/rmsnorm.mlir -p 'ktir-to-schedule,stage-coarsening,broadcast-promotion,verify-schedule' --arch toy > %t
// RUN: filecheck %s < %t
// RUN: grep -c 'data_transfer from %w_tile' %t | filecheck %s --check-prefix=ONCE

// ONCE: 1

// CHECK:      %[[W:w_tile]] = memref.reinterpret_cast %w_view
// CHECK:      %[[H:.*]] = memref.alloc() : memref<1x256xf16, "L1">
// CHECK-NEXT: ktdf.pipeline {
// CHECK-NEXT:   ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:     ktdf.data_transfer from %[[W]][0] size [256] to %[[H]][0, 0] size [1, 256]
// CHECK-NEXT:   } {applicable_units = ["MNILU"]}
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK:        ktdf.pipeline {
// CHECK-NEXT:     ktdf.private -> (memref<?x1x256xf16, "L1">, memref<?x1x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:                ktdf.data_transfer from %[[H]][0, 0] size [1, 256] to %{{.*}} size [256]
// CHECK-NEXT:         } {applicable_units = ["L1LU"]}
