// Generics that are not contractions stay as they are: a row sum (one input, its
// column loop reduced), and a generic whose reduced loop indexes only one of its two
// inputs.

// RUN: ktc-opt %s --arch toy -p normalize-contractions | filecheck %s

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @sums(%x: tensor<16x16xf16>, %y: tensor<16xf16>, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<16xf16>
    // CHECK:      linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<16x16xf16>)
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x16xf16>) outs(%zero : tensor<16xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %s = arith.addf %acc, %in : f16
      linalg.yield %s : f16
    } -> tensor<16xf16>
    // CHECK:      linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<16x16xf16>, tensor<16xf16>)
    %scaled = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %y : tensor<16x16xf16>, tensor<16xf16>) outs(%sum : tensor<16xf16>) {
    ^bb0(%in: f16, %w: f16, %acc: f16):
      %p = arith.mulf %in, %w : f16
      %s = arith.addf %acc, %p : f16
      linalg.yield %s : f16
    } -> tensor<16xf16>
    %out = ktdp.construct_memory_view %c, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %o = ktdp.construct_access_tile %out[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    ktdp.store %scaled, %o : tensor<16xf16>, !ktdp.access_tile<16xindex>
    return
  }
}
