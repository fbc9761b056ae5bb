// A read of another tile's scratchpad at a start from the index of a loop whose
// bound depends on the tile id is refused at the load: the owner makes each reader's
// copy in the same iteration as the reader, so the loop must run alike on every tile.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p remote-scratchpad-lowering

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @uneven(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %at = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %trips = arith.addi %t, %c1 : index
  %theirs = ktdp.construct_memory_view %at, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x8xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  scf.for %i = %c0 to %trips step %c1 {
    %rt = ktdp.construct_access_tile %theirs[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    // expected-error@+1 {{reads another tile's scratchpad at a start computed from other than constants, the tile id, launch arguments and the indices of loops that run the same iterations on every tile; the copies over the interconnect are planned per tile, from starts each tile computes for any other}}
    %r = ktdp.load %rt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
    ktdp.store %r, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  }
  return
}
