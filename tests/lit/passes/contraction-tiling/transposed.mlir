// A product whose operands are stored k-major (A as k x m, B as n x k, read through a
// linalg.transpose) is tiled for the matrix unit on spyre and toy, like a row-major
// one: the DMA transposes them as it copies them, its scratchpad writes costed one
// transfer per element. The third chip has no matrix unit: its SIMD engine VPU takes
// the whole product.

// RUN: ktc-opt %S/../contraction-pipeline/transposed.mlir --arch spyre -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %S/../contraction-pipeline/transposed.mlir --arch toy -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %S/../contraction-pipeline/transposed.mlir --arch %S/../../arch/Inputs/line4.mlir -p compute-group-extraction,normalize-contractions,contraction-tiling | filecheck %s --check-prefix=LINE4

// SPYRE: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 16 : i64, chunk = 16 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 16 : i64, m = 8 : i64, n = 16 : i64}}
// TOY:   linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {block = 8 : i64, chunk = 4 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 16 : i64, m = 8 : i64, n = 16 : i64}}
// LINE4: linalg.generic {{.*}} attrs = {ktdf.contraction_tiles = {{{.*}}engine = "VPU"{{.*}}}}
