// A read of another tile's scratchpad whose start is not a constant of the tile id
// (here a loop variable) is refused at the load: the owner copies every reader's tile,
// so it must know each start.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p remote-scratchpad-lowering

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @looped(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %at = arith.constant 256 : index
  %theirs = ktdp.construct_memory_view %at, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x8xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  scf.for %i = %c0 to %c2 step %c1 {
    %rt = ktdp.construct_access_tile %theirs[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    // expected-error@+1 {{reads another tile's scratchpad at a start that is not a constant of the tile id; the copies over the interconnect are planned per tile, so the start of every tile must be known}}
    %r = ktdp.load %rt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
    ktdp.store %r, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  }
  return
}
