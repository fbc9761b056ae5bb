// A copy between two views of one array may write bytes it has yet to read, so it is
// gathered whole before it is stored; a tile and index view larger than the
// scratchpad (toy's 64 KiB) cannot be, and the lowering says so at the store.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p indirect-access-lowering

#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 999 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#indices = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%x: index, %idx: index) {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [1000, 256], strides: [256, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<1000x256xf16>
  %idx_view = ktdp.construct_memory_view %idx, sizes: [256], strides: [1] {coordinate_set = #indices, memory_space = #ktdp.memory_space<global>} : memref<256xi32>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x_view[ind(%idx_view[%m]), (%k)] {
    variables_space_set = #tile, variables_space_order = #identity
  } : memref<1000x256xf16>, memref<256xi32> -> !ktdp.access_tile<256x256xindex>
  %first = ktdp.construct_access_tile %x_view[%c0, %c0] {
    access_tile_set = #tile, access_tile_order = #identity
  } : memref<1000x256xf16> -> !ktdp.access_tile<256x256xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  // expected-error@+1 {{copies between views that may share bytes (%x_view and %x_view), so the whole tile is read before any of it is written; the tile and its index views take 132096 bytes, more than the 65536 bytes of the scratchpad (L1) of device @toy: copy into a view of another array, or a smaller tile}}
  ktdp.store %v, %first : tensor<256x256xf16>, !ktdp.access_tile<256x256xindex>
  return
}
