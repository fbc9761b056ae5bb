// Two products on the matrix unit in one program are tiled each on its own, from the
// cost model, as one alone would be (spyre: the whole 8 x 16 output in one tile, k in
// one chunk of 16; toy: blocks of its 8 lanes, chunks of 4); on the third chip, without
// a matrix unit, both are multiplied on its SIMD engine. The order of the engines that
// reuse one's scratchpad space for the other is convert-ktdf-to-dfir's
// (tests/lit/passes/convert-ktdf-to-dfir/reuse.mlir).

// RUN: ktc-opt %s --arch spyre -p normalize-contractions,contraction-tiling | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p normalize-contractions,contraction-tiling | filecheck %s --check-prefix=SIMD
// SPYRE-COUNT-2: ktdf.contraction_tiles = {block = 16 : i64, chunk = 16 : i64, engine = "PT", estimated_cycles = {{[0-9]+}} : i64, k = 16 : i64, m = 8 : i64, n = 16 : i64}
// TOY-COUNT-2: ktdf.contraction_tiles = {block = 8 : i64, chunk = 4 : i64, engine = "PT"
// SIMD-COUNT-2: engine = "VPU"

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#o = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @two(%a: index, %b: index, %c: index, %d: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %av = ktdp.construct_memory_view %a, sizes: [8, 16], strides: [16, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [8, 16], strides: [16, 1] {coordinate_set = #o, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %dv = ktdp.construct_memory_view %d, sizes: [8, 16], strides: [16, 1] {coordinate_set = #o, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #x, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #o, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %dt = ktdp.construct_access_tile %dv[%c0, %c0] {access_tile_set = #o, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %x = ktdp.load %at : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
    %y = ktdp.load %bt : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<8x16xf16>
    %z = linalg.fill ins(%zero : f16) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
    %p = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x16xf16>) outs(%z : tensor<8x16xf16>) -> tensor<8x16xf16>
    %q = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x16xf16>) outs(%z : tensor<8x16xf16>) -> tensor<8x16xf16>
    ktdp.store %p, %ct : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    ktdp.store %q, %dt : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    return
  }
}
