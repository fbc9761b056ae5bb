// Transfers of a ktdf.masked view (tests/e2e/inputs/masked_add.mlir: 1024-element
// tiles over %n elements, %n a launch argument) move only the part inside the
// view's set: the DMA engine computes min(max(n - start, 0), block) from the
// launch's symbol for n and the block's start, and both views of the copy take it as
// their dynamic size. A copy out of the masked view fills the rest of its scratchpad
// block with zeros (zero_fill); a copy into one writes only the valid part.

// RUN: ktc-opt %S/../../../e2e/inputs/masked_add.mlir --arch toy -p ktir-to-dfir | filecheck %s

// CHECK:      dfir.define_symbol [[N:[0-9]+]] = %n : index
// CHECK:      %[[ZERO:[^ ]+]] = arith.constant 0 : index
// CHECK:      %[[NS:[^ ]+]] = dfir.symbol [[N]] : index
// CHECK:      %[[BLOCK:[^ ]+]] = arith.constant 64 : index
// CHECK:      dfir.program "MNILU"
// CHECK:        %[[LEFT:[^ ]+]] = arith.subi %[[NS]], %{{[^ ]+}} : index
// CHECK-NEXT:   %[[POSITIVE:[^ ]+]] = arith.maxsi %[[LEFT]], %[[ZERO]] : index
// CHECK-NEXT:   %[[VALID:[^ ]+]] = arith.minsi %[[POSITIVE]], %[[BLOCK]] : index
// CHECK:        %[[FROM:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] sizes(%[[VALID]]) : !dfir.unit<"DDR"> -> memref<?xf32>
// CHECK:        %[[TO:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<64xf32>
// CHECK-NEXT:   dfir.dma %[[FROM]] to %[[TO]] zero_fill : memref<?xf32>, memref<64xf32>
// CHECK:      dfir.program "MNISU"
// CHECK:        %[[SLEFT:[^ ]+]] = arith.subi %[[NS]], %{{.*}} : index
// CHECK-NEXT:   %[[SPOSITIVE:[^ ]+]] = arith.maxsi %[[SLEFT]], %[[ZERO]] : index
// CHECK-NEXT:   %[[SVALID:[^ ]+]] = arith.minsi %[[SPOSITIVE]], %[[BLOCK]] : index
// CHECK:        %[[SFROM:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] sizes(%[[SVALID]]) : !dfir.unit<"L1"> -> memref<?xf32>
// CHECK:        %[[STO:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] sizes(%[[SVALID]]) : !dfir.unit<"DDR"> -> memref<?xf32>
// CHECK-NEXT:   dfir.dma %[[SFROM]] to %[[STO]] : memref<?xf32>, memref<?xf32>
