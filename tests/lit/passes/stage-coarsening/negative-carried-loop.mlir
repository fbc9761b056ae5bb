// A sunk loop carrying a tensor kept in the scratchpad from one iteration to the
// next (x + z[0:64] + ... + z[192:256] summed in place in %s_tile) is not marked
// parallel_loop: every iteration of %i reads and writes the same rows of %s_tile, so
// parallelize-loops-across-instances must not share its iterations over the sub-cores.
// The row loop inside it, whose iterations each touch their own row, keeps its mark.

// RUN: ktc-opt %s -p 'ktir-to-schedule,stage-coarsening,verify-schedule' --arch spyre | filecheck %s

// CHECK-LABEL: func.func @local_schedule_1(%z: index)
// CHECK:         ktdf.stage depends_in(%{{.*}}) depends_out(none) {
// CHECK-NEXT:      scf.for %i = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               ktdf.data_transfer from %s_tile[%[[ROW]], %{{.*}}] size [1, 64]
// CHECK:               ktdf.data_transfer from %{{.*}} size [1, 64] to %s_tile[%[[ROW]], %{{.*}}] size [1, 64]
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      {{^ *[}]$}}
// CHECK-NEXT:    } {applicable_units = ["L1LU", "SFU", "L1SU"]}

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blocks = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @resident(%x: index, %z: index, %y: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %trips = arith.constant 4 : index
    %at = arith.constant 4096 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %z_view = ktdp.construct_memory_view %z, sizes: [256, 64], strides: [64, 1] {coordinate_set = #blocks, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %s_view = ktdp.construct_memory_view %at, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %x0 = ktdp.load %x_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    ktdp.store %x0, %s_tile : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    scf.for %i = %c0 to %trips step %c1 {
      %v = ktdp.load %s_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %z_tile = ktdp.construct_access_tile %z_view[%i * 64, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %w = ktdp.load %z_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %sum = arith.addf %v, %w : tensor<64x64xf16>
      ktdp.store %sum, %s_tile : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    }
    %r = ktdp.load %s_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    ktdp.store %r, %y_tile : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    return
  }
}
