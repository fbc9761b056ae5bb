// The tiles of examples/matmul.mlir's 32 x 128 by 128 x 64 product on each device,
// from its cost model. Spyre's 8 x 64 matrix unit holds the whole 32 x 64 output tile
// in its 64 KiB of accumulators: one output tile, one k tile of 128, chunks of 32 so
// that two pairs of operands (a 32 x 32 chunk of A, a 32 x 64 block of B) fit its
// 16 KiB FIFO. Toy's 2 x 8 unit holds 512 bytes of f32 accumulators: output tiles of
// 8 x 16, blocks of its 8 lanes, chunks of 4 for its 256-byte FIFO. The third chip has
// no matrix unit: its SIMD engine VPU takes the whole product, multiplied and reduced.

// RUN: ktc-opt %root/examples/matmul.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %root/examples/matmul.mlir --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %root/examples/matmul.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=LINE4

// SPYRE: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 64 : i64, chunk = 32 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 128 : i64, m = 32 : i64, n = 64 : i64}}
// TOY:   linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 8 : i64, chunk = 4 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 128 : i64, m = 8 : i64, n = 16 : i64}}
// LINE4: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 64 : i64, chunk = 128 : i64, engine = "VPU", estimated_cycles = {{[0-9]+}} : i64, k = 128 : i64, m = 32 : i64, n = 64 : i64}}
