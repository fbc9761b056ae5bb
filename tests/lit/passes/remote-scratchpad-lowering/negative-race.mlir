// A program that reads another tile's scratchpad and also stores into a scratchpad is
// refused at the load: the owner's copy would race with the store. (After
// compute-group-extraction a store ends a program, so this comes from a load and a
// store that one program holds.)

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p remote-scratchpad-lowering

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @race() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %at = arith.constant 256 : index
  %theirs = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x8xf16>
  %mine = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x8xf16>
  %rt = ktdp.construct_access_tile %theirs[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %mt = ktdp.construct_access_tile %mine[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  // expected-error@+1 {{reads another tile's scratchpad in a program that also stores into a scratchpad; the copy over the interconnect would race with that store, so store in an earlier compute group: the store at}}
  %r = ktdp.load %rt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %d = arith.addf %r, %r : tensor<1x8xf16>
  ktdp.store %d, %mt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}
