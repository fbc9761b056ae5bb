// The estimate counts the busiest of a core's matrix units: the 32 x 128 by 128 x 64
// product of contraction-pipeline/two-units.mlir on spyre has one output tile of two
// 64-column blocks, one per sub-core's unit, so its matrix term is one block's: 2
// chunks of 32 x 32 by 32 x 64, 128 steps each plus fill and drain (8 + 8), 288
// cycles (576 with one unit); the drain's 32 x 128 f32 over the two units' 128 B/cycle
// store paths, 128 (256 with one); plus the first transfer's latency from device
// memory to the unit, 107: 523 cycles. Neither the device-memory term (20 KiB at
// 128 B/cycle, 160) nor the feed (each unit's load unit, 192) binds.

// RUN: ktc-opt %S/../contraction-pipeline/two-units.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s

// CHECK: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 64 : i64, chunk = 32 : i64, engine = "PT", estimated_cycles = 523 : i64, k = 64 : i64, m = 32 : i64, n = 128 : i64}}
