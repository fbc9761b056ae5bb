// A product whose A is computed on chip with rows too long for spyre's FIFO in one
// chunk (8 rows of 512: a chunk of whole rows by any block of B is over the FIFO's
// 16 KiB four times over) is tiled for the matrix unit with all 8 rows an output tile,
// fed 8 x 64 chunks (a block of A staged chunk-major, 64 columns a whole 128-byte unit
// of the scratchpad, so every block starts on one). The SIMD engine, which reduces
// along k innermost, would read B (stored k x n) through a permuted view, an element
// per 128-byte transfer: its estimate counts those reads and exceeds the unit's.

// RUN: ktc-opt %S/../contraction-pipeline/on-chip-chunks.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s

// CHECK: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 32 : i64, chunk = 64 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 512 : i64, m = 8 : i64, n = 64 : i64}}
