// A distributed view is accepted as split-distributed-views rewrites it; the rest is
// refused at the op at fault: a load feeding compute whose tile may span both
// partitions (its start is a launch argument), a distributed view used otherwise
// than by access tiles (as a partition of another), and a store into a partition in
// another tile's scratchpad (which is read, by a copy or over the interconnect, but
// not written).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#half = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#other_half = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @spanning(%a: index, %b: index, %c: index, %r: index) {
  %c0 = arith.constant 0 : index
  %a_view = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %b_view = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {coordinate_set = #other_half, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %c_view = ktdp.construct_memory_view %c, sizes: [16], strides: [1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  %view = ktdp.construct_distributed_memory_view(%a_view, %b_view : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %t = ktdp.construct_access_tile %view[%r] {access_tile_set = #tile, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<16xindex>
  %u = ktdp.construct_access_tile %c_view[%c0] {access_tile_set = #tile, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  // expected-error@+1 {{a load through a tile of a distributed view that may span several partitions, whose tensor is computed with, is not compiled: the tile must lie in one partition for every value of its indices, or on each tile in one of partitions alike but for their start; load each partition's part through a tile that lies in it and compute on each part (for a row-wise computation, one per partition of rows), or copy the tile into a view of device memory first (a load only stored, compiled per partition) and load that view in a later compute group}}
  %x = ktdp.load %t : !ktdp.access_tile<16xindex> -> tensor<16xf16>
  %y = arith.addf %x, %x : tensor<16xf16>
  ktdp.store %y, %u : tensor<16xf16>, !ktdp.access_tile<16xindex>
  return
}

// -----

#half = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @not_a_view(%a: index) {
  %a_view = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %inner = ktdp.construct_distributed_memory_view(%a_view : memref<64xf16>) : memref<64xf16>
  // expected-error@+1 {{'ktdp.construct_distributed_memory_view' uses a distributed view; the compiler reads and writes one through 'ktdp.construct_access_tile'}}
  %view = ktdp.construct_distributed_memory_view(%a_view, %inner : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  return
}

// -----

#half = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#other_half = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @other_scratchpad(%a: index, %c: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %a_view = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %b_view = ktdp.construct_memory_view %c4096, sizes: [64], strides: [1] {coordinate_set = #other_half, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %c_view = ktdp.construct_memory_view %c, sizes: [16], strides: [1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  %view = ktdp.construct_distributed_memory_view(%a_view, %b_view : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %t = ktdp.construct_access_tile %view[%c64] {access_tile_set = #tile, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<16xindex>
  %u = ktdp.construct_access_tile %c_view[%c0] {access_tile_set = #tile, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %u : !ktdp.access_tile<16xindex> -> tensor<16xf16>
  %y = arith.addf %x, %x : tensor<16xf16>
  // expected-error@+1 {{the tile lies in the scratchpad of tile 1; another tile's scratchpad is read by a copy into device memory (a load only stored there), which that tile makes, or by a load at a start that is a constant per tile (over the interconnect); a store into it is not compiled}}
  ktdp.store %y, %t : tensor<16xf16>, !ktdp.access_tile<16xindex>
  return
}
