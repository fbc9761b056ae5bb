// address-assignment lets two scratchpad buffers of consecutive steps share bytes: on
// spyre the bias row of this kernel (read by the load unit while tile 0 makes 2 b[0])
// and the row of x (copied in afterwards) both sit at address 512 of each core's L1.
// The engines of the two steps run at once, so DMA-in waits for a signal from the
// load unit on each sub-core, sent once it has read the bias, before it copies x
// over it; before, only the latency of the copy kept x from landing first.

// RUN: ktc-opt %s --arch spyre -p ktir-to-dfir | filecheck %s

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_set<(t)[g] : (t == 0)>
#every = affine_set<(t)[g] : (t >= 0, -t + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @broadcast_row(%x: index, %b: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %bt = ktdp.construct_access_tile %bv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
  %bias = ktdp.load %bt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #first -> <(tensor<1x128xf16>), groups = #one> {
  ^bb0(%gid: index):
    %two = arith.constant dense<2.0> : tensor<1x128xf16>
    %d = arith.mulf %bias, %two : tensor<1x128xf16>
    ktdp.yield_partial %d : tensor<1x128xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #every : !ktdp.tile_future<(tensor<1x128xf16>), groups = #one> -> tensor<1x128xf16>
  %a = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %s = arith.addf %a, %r : tensor<1x128xf16>
  ktdp.store %s, %yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  return
}


// CHECK:      dfir.program "MNILU"
// CHECK:        dfir.dma
// CHECK-NEXT:   dfir.sync_send %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1LU">
// CHECK-NEXT:   dfir.sync_send %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1LU">
// CHECK-NEXT:   dfir.sync_recv %{{.*}} id [[FREE0:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK-NEXT:   dfir.sync_recv %{{.*}} id [[FREE1:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK:        dfir.dma
// CHECK:      dfir.program "L1LU"
// CHECK:        dfir.sync_send %{{.*}} id [[FREE0]] : !dfir.unit<"MNILU">
// CHECK:        dfir.sync_send %{{.*}} id [[FREE1]] : !dfir.unit<"MNILU">
// CHECK:      dfir.program "SFU"
