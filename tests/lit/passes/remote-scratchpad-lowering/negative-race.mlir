// A program that stores into another tile's scratchpad bytes that it also reads is
// refused at the store: nothing orders the owner's read of them against the writer's
// copy over the interconnect within one program.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p remote-scratchpad-lowering

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @race(%x: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %at = arith.constant 256 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16>
  %theirs = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x8xf16>
  %mine = ktdp.construct_memory_view %at, sizes: [1, 8], strides: [8, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x8xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %mt = ktdp.construct_access_tile %mine[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %rt = ktdp.construct_access_tile %theirs[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %m = ktdp.load %mt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %d = arith.addf %a, %m : tensor<1x8xf16>
  // expected-error@+1 {{stores into another tile's scratchpad bytes that the program also reads; nothing orders the owner's accesses against the copy over the interconnect within one program, so read them in a later compute group: the load at}}
  ktdp.store %d, %rt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}
