// A row loop around a loop over column blocks whose step, the block size, is an
// argument (as the corpus's layer norm walks its rows): the tile size placeholder of
// the block loop is placed before the row loop, not inside it, so the staging
// buffers it sizes are allocated once for all rows and double-buffering rotates
// them over both loops (a row's first block loads while the row before is still
// being computed).

// RUN: ktc-opt %s -p 'ktir-to-schedule,stage-coarsening,verify-schedule' --arch toy | filecheck %s
// RUN: ktc-opt %s -p 'ktir-to-schedule,stage-coarsening,double-buffering,verify-schedule' --arch toy | filecheck %s --check-prefix=ROTATE

// CHECK:      %[[TS:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:        scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     ktdf.tiling.derive_size [%[[T]] : %[[TS]]], total_size = %{{.*}} : index

// ROTATE:      %[[TS:.*]] = ktdf.tiling.reserve_size
// ROTATE-COUNT-6: memref.alloc(%[[TS]]) : memref<?x2x1x8xf16, "L1">
// ROTATE-NEXT: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// ROTATE:        scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// ROTATE:          ktdf.buffer_phase(%[[R]], %[[T]]) {num_phases = 2 : i64} : index
// ROTATE:          ktdf.pipeline modulo(size : 2) {

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index, %n: index, %block: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tile = ktdp.get_compute_tile_id : index
    %a_view = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    scf.for %r = %tile to %c64 step %c8 {
      scf.for %col = %c0 to %n step %block {
        %a_tile = ktdp.construct_access_tile %a_view[%r, %col] {
          access_tile_set = #block, access_tile_order = #identity
        } : memref<64x64xf16> -> !ktdp.access_tile<1x16xindex>
        %b_tile = ktdp.construct_access_tile %b_view[%r, %col] {
          access_tile_set = #block, access_tile_order = #identity
        } : memref<64x64xf16> -> !ktdp.access_tile<1x16xindex>
        %c_tile = ktdp.construct_access_tile %c_view[%r, %col] {
          access_tile_set = #block, access_tile_order = #identity
        } : memref<64x64xf16> -> !ktdp.access_tile<1x16xindex>
        %x = ktdp.load %a_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
        %y = ktdp.load %b_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
        %sum = arith.addf %x, %y : tensor<1x16xf16>
        ktdp.store %sum, %c_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
      }
    }
    return
  }
}
