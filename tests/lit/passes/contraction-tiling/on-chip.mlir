// A product whose A is computed on chip (the squares of a loaded tile) is tiled for
// spyre's matrix unit with A's whole rows as one chunk (k and chunk 64: the load unit
// feeds them from the scratchpad buffer A is stored in), blocks of B as wide as that
// lets two pairs of operands fit the FIFO (32 columns), one output tile of two such
// blocks (32 x 64, a block on each of spyre's two matrix units: as few steps a unit
// as 32 x 32 tiles with their rows split between the units, and larger), since its
// estimate is below
// the SIMD engine's least (one multiply-add per lane a cycle). Toy's 256-byte FIFO
// holds no chunk of 64 elements, so its SIMD engine (SFU) multiplies it; the third
// chip has no matrix unit. (An 8 x 64 by 64 x 16 product goes to spyre's SIMD engine:
// 128 cycles of multiply-adds, below the unit's estimate with its latencies.)

// RUN: ktc-opt %S/../contraction-pipeline/on-chip.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %S/../contraction-pipeline/on-chip.mlir --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %S/../contraction-pipeline/on-chip.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=LINE4

// SPYRE: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 32 : i64, chunk = 64 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 64 : i64, m = 32 : i64, n = 64 : i64}}
// TOY:   linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {{{.*}}engine = "SFU"{{.*}}}}
// LINE4: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {{{.*}}engine = "VPU"{{.*}}}}
