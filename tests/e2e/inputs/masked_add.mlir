#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @masked_add(%x: index, %y: index, %out: index, %n: index) attributes {grid = [2]} {
  %tile = ktdp.get_compute_tile_id : index
  %c1024 = arith.constant 1024 : index
  %start = arith.muli %tile, %c1024 : index
  %xv = ktdp.construct_memory_view %x, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %xt = ktdp.construct_access_tile %xv[%start] {access_tile_set = #block, access_tile_order = #id}
      : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %yt = ktdp.construct_access_tile %yv[%start] {access_tile_set = #block, access_tile_order = #id}
      : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %ot = ktdp.construct_access_tile %ov[%start] {access_tile_set = #block, access_tile_order = #id}
      : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1024xindex> -> tensor<1024xf32>
  %b = ktdp.load %yt : !ktdp.access_tile<1024xindex> -> tensor<1024xf32>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %sum = arith.addf %a, %b : tensor<1024xf32>
  %r = arith.addf %sum, %one : tensor<1024xf32>
  ktdp.store %r, %ot : tensor<1024xf32>, !ktdp.access_tile<1024xindex>
  return
}
