// A gather through an index view (tests/lit/passes/indirect-access-lowering/basic.mlir)
// on the DMA engine: the index view copied into the scratchpad, then per row an index
// read with dfir.load_index, clamped to the table's 100 rows (unsigned, so a negative
// index is past the end too), the row's address computed from it and one indirect DMA
// of the part of the 16-element row inside the table (none past its end), the rest
// zeros; the scatter writes only that part. The scatter's engine reads the index
// buffer the other DMA engine filled only after that engine's signal. (The loops over
// the 8 rows are then unrolled by unroll-short-loops: the checks follow the first row.)

// RUN: ktc-opt %S/../indirect-access-lowering/basic.mlir --arch toy -p ktir-to-dfir | filecheck %s

// CHECK:      dfir.program "MNILU"
// CHECK:        %[[IDX_IN:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"DDR"> -> memref<8xi32>
// CHECK-NEXT:   %[[IDX_BUF:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<8xi32>
// CHECK-NEXT:   dfir.dma %[[IDX_IN]] to %[[IDX_BUF]] : memref<8xi32>, memref<8xi32>
// CHECK:          %[[I:[^ ]+]] = dfir.load_index %{{.*}}[%{{.*}}] : memref<8xi32>, i32
// CHECK-NEXT:     %[[ROW:[^ ]+]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:     %[[CLAMPED:[^ ]+]] = arith.minui %[[ROW]], %{{.*}} : index
// CHECK:          %[[FROM:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] sizes(%{{.*}}) : !dfir.unit<"DDR"> -> memref<?xf16>
// CHECK:          dfir.dma %[[FROM]] to %{{.*}} zero_fill indirect : memref<?xf16>, memref<16xf16>
// CHECK:      dfir.program "MNISU"
// CHECK:        dfir.sync_recv %{{.*}} id {{[0-9]+}} : !dfir.unit<"MNILU">
// CHECK:          dfir.load_index
// CHECK:          arith.minui
// CHECK:          dfir.dma %{{.*}} to %{{.*}} indirect : memref<?xf16>, memref<?xf16>
