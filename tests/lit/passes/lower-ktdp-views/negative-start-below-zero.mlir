// A tile whose start can go below 0 (here a loop index minus 4) is refused at the
// access tile: the compiler masks blocks past a view's upper bounds, not below 0.

// RUN: ktc-opt %s --verify-diagnostics --arch toy -p lower-ktdp-views

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    scf.for %j = %c0 to %c16 step %c8 {
      // expected-error@+1 {{the access tile starts as low as -4 in dimension 1; the compiler masks tiles that reach past a view's upper bounds, not below 0}}
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %j - 4] {access_tile_set = #tile, access_tile_order = #id} : memref<8x16xf16> -> !ktdp.access_tile<8x8xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
      %y = math.exp %x : tensor<8x8xf16>
      ktdp.store %y, %x_tile : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
    }
    func.return
  }
}
