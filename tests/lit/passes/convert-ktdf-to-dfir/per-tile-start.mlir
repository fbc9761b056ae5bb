// A copy in which each tile reads its own one of two arrays (split-distributed-views'
// per-tile start x0 * [t == 0] + x1 * [t == 1], used by a DMA inside the tile loops):
// the DMA engine computes that start once, at its program's start, from its per-core
// tables and the argument symbols, and the loops use the one value. (Computed where it
// is used, every table would stay live through the loops: a program choosing among 32
// arrays ran out of scalar registers.) Its tile loops are then unrolled by
// unroll-short-loops: no query follows the start up to the first copy. (Before the
// start: the queries of the two load units it signals, one per sub-core, and of one
// more per-core index.)

// RUN: ktc-opt %S/../split-distributed-views/per-tile-loop.mlir --arch spyre -p ktir-to-dfir | filecheck %s

// CHECK:       dfir.program "MNILU"
// CHECK-NEXT:    dfir.query %{{.*}} : !dfir.uniform<"MNILU", !dfir.unit<"L1LU">>
// CHECK-NEXT:    dfir.query %{{.*}} : !dfir.uniform<"MNILU", !dfir.unit<"L1LU">>
// CHECK-NEXT:    dfir.query %{{.*}} : !dfir.uniform<"MNILU", index>
// CHECK-NEXT:    %[[T0:.*]] = dfir.query %{{.*}} : !dfir.uniform<"MNILU", index>
// CHECK-NEXT:    %[[P0:.*]] = arith.muli %[[T0]], %{{.*}} : index
// CHECK-NEXT:    %[[T1:.*]] = dfir.query %{{.*}} : !dfir.uniform<"MNILU", index>
// CHECK-NEXT:    %[[P1:.*]] = arith.muli %[[T1]], %{{.*}} : index
// CHECK-NEXT:    %[[START:.*]] = arith.addi %[[P0]], %[[P1]] : index
// CHECK:         arith.muli %[[START]], %{{.*}} : index
// CHECK-NOT:     dfir.query
// CHECK:         dfir.dma
