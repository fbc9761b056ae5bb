// A generic making a tensor of i1 that cannot fuse into its reader (it reads its own
// output) is refused at it: the mask would have to be handed over.

// RUN: ktc-opt %s -p generalize-and-fuse --verify-diagnostics

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @kept_mask(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %seed = tensor.empty() : tensor<64xi1>
  // expected-error@+1 {{'linalg.generic' makes a tensor of i1 that does not fuse into the generics reading it (it reduces, reads its output or writes through a map that is not a permutation); a compute stage neither stores nor hands over masks}}
  %mask = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf16>) outs(%seed : tensor<64xi1>) {
  ^bb0(%in: f16, %old: i1):
    %zero = arith.constant 0.0 : f16
    %positive = arith.cmpf ogt, %in, %zero : f16
    %both = arith.andi %positive, %old : i1
    linalg.yield %both : i1
  } -> tensor<64xi1>
  %zeros = arith.constant dense<0.0> : tensor<64xf16>
  %y = arith.select %mask, %x, %zeros : tensor<64xi1>, tensor<64xf16>
  ktdp.store %y, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
