// A KTIR kernel whose array size is a scalar argument: a[0:16] *= k, over a view of
// %n elements (for ktc run's checks of the shapes it draws).
#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @scale(%a: index, %n: index, %k: f16) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %a, sizes: [%n], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = #s, access_tile_order = #identity} : memref<?xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %t : !ktdp.access_tile<16xindex> -> tensor<16xf16>
  %s = tensor.splat %k : tensor<16xf16>
  %y = arith.mulf %x, %s : tensor<16xf16>
  ktdp.store %y, %t : tensor<16xf16>, !ktdp.access_tile<16xindex>
  return
}
