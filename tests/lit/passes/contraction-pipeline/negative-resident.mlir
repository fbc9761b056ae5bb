// A contraction's tiles may name only A ("lhs") or B ("rhs") as the operand kept
// resident: any other value is refused at the op, with what the attribute may hold.

// RUN: not ktc-opt %s -p contraction-pipeline 2>&1 | filecheck %s
// CHECK-NOT: Traceback
// CHECK: negative-resident.mlir:[[# @LINE + 25]]:7: error: 'linalg.generic' op 'ktdf.contraction_tiles' must be a dictionary of m, n, k, chunk and block (each an i64 > 0), engine (a unit kind), estimated_cycles (an i64 >= 0) and maybe resident ("lhs" or "rhs")

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
module {
  ktdf_arch.device @toy import("toy")
  func.func @column(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 16 : index
    %depth = arith.constant 64 : index
    %av = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %bv = ktdp.construct_memory_view %b, sizes: [64, 16], strides: [16, 1] {coordinate_set = #set1, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %cv = ktdp.construct_memory_view %c, sizes: [32, 16], strides: [16, 1] {coordinate_set = #set2, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %zeros = arith.constant dense<0.000000e+00> : tensor<32x16xf16>
    %sum = scf.for %k = %c0 to %depth step %step iter_args(%acc = %zeros) -> (tensor<32x16xf16>) {
      %at = ktdp.construct_access_tile %av[%c0, %k] {access_tile_order = #map, access_tile_set = #set2} : memref<32x64xf16> -> !ktdp.access_tile<32x16xindex>
      %bt = ktdp.construct_access_tile %bv[%k, %c0] {access_tile_order = #map, access_tile_set = #set3} : memref<64x16xf16> -> !ktdp.access_tile<16x16xindex>
      %x = ktdp.load %at : <32x16xindex> -> tensor<32x16xf16>
      %y = ktdp.load %bt : <16x16xindex> -> tensor<16x16xf16>
      %next = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<32x16xf16>, tensor<16x16xf16>) outs(%acc : tensor<32x16xf16>) attrs =  {ktdf.contraction_tiles = {block = 8 : i64, chunk = 4 : i64, engine = "PT", estimated_cycles = 918 : i64, k = 16 : i64, m = 8 : i64, n = 16 : i64, resident = "both"}} {
      ^bb0(%arg0: f16, %arg1: f16, %arg2: f16):
        %0 = arith.mulf %arg0, %arg1 : f16
        %1 = arith.addf %arg2, %0 : f16
        linalg.yield %1 : f16
      } -> tensor<32x16xf16>
      scf.yield %next : tensor<32x16xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_order = #map, access_tile_set = #set2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    ktdp.store %sum, %ct : tensor<32x16xf16>, <32x16xindex>
    return
  }
}
