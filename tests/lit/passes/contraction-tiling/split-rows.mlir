// The estimate counts the busiest matrix unit when an output tile's rows are split
// between a core's units: the 32 x 64 by 64 x 64 product of
// contraction-pipeline/split-rows.mlir on spyre is one output tile of one 64-column
// block, 16 rows on each sub-core's unit. Its matrix term is one unit's: 2 chunks of
// 16 x 32 by 32 x 64, 64 steps each plus fill and drain (8 + 8), 160 cycles (288 with
// all 32 rows on one unit); its feed, each unit's 16 rows of A and all of B's block
// loaded and sent at 128 B/cycle, (2 x 2,560 f16) x 2 / 128 = 160; the drain of its
// half of the 32 x 64 f32 result through its store unit, 64; plus the first
// transfer's latency from device memory to the unit, 107: 331 cycles. Device memory
// (12 KiB at 128 B/cycle, 96) does not bind.

// RUN: ktc-opt %S/../contraction-pipeline/split-rows.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s

// CHECK: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 64 : i64, chunk = 32 : i64, engine = "PT", estimated_cycles = 331 : i64, k = 64 : i64, m = 32 : i64, n = 64 : i64}}
