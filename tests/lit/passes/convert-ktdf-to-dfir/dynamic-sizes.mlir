// A tile size that does not divide its loop: 32 vectors of 4 f32 in tiles of 11
// vectors leave a last tile of 10. The DMA of each tile moves the rows
// ktdf.tiling.derive_size gives, min(11, max(32 - 11 i, 0)), computed in the program;
// the views it copies between have that many elements as a dynamic dimension
// (dfir.view ... sizes(%n) -> memref<?xf32>), for the full tiles and the last alike.

// RUN: ktc-opt %s --arch toy -p convert-ktdf-to-dfir | filecheck %s

// CHECK:      dfir.dataflow {
// CHECK-DAG:  %[[C11:[^ ]+]] = arith.constant 11 : index
// CHECK-DAG:  %[[C32:[^ ]+]] = arith.constant 32 : index
// CHECK-DAG:  %[[C4:[^ ]+]] = arith.constant 4 : index
// CHECK:      dfir.program "MNILU"
// CHECK:        scf.for %[[I:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          %[[LEFT:[^ ]+]] = arith.subi %[[C32]], %{{.*}} : index
// CHECK-NEXT:     %[[POSITIVE:[^ ]+]] = arith.maxsi %[[LEFT]], %{{.*}} : index
// CHECK-NEXT:     %[[ROWS:[^ ]+]] = arith.minsi %[[C11]], %[[POSITIVE]] : index
// CHECK-NEXT:     %[[ELEMENTS:[^ ]+]] = arith.muli %[[ROWS]], %[[C4]] : index
// CHECK-NEXT:     %[[FROM:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] sizes(%[[ELEMENTS]]) : !dfir.unit<"DDR"> -> memref<?xf32>
// CHECK:          %[[TO:[^ ]+]] = dfir.view %{{.*}}[%{{.*}}] sizes(%{{.*}}) : !dfir.unit<"L1"> -> memref<?xf32>
// CHECK-NEXT:     dfir.dma %[[FROM]] to %[[TO]] : memref<?xf32>, memref<?xf32>
// CHECK:      dfir.program "MNISU"
// CHECK:          dfir.view %{{.*}}[%{{.*}}] sizes(%{{.*}}) : !dfir.unit<"DDR"> -> memref<?xf32>
// CHECK-NEXT:     dfir.dma %{{.*}} to %{{.*}} : memref<?xf32>, memref<?xf32>

#map = affine_map<(d0, d1) -> (d0 * 128 + d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
module {
  module {
    func.func @generated(%in0: index, %out: index) attributes {grid = [1]} {
      call @local_schedule_0(%in0, %out) : (index, index) -> ()
      return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%in0: index, %out: index) attributes {grid = [1], ktdf.tile_sizes = {L1_capacity = 65536 : i64, L1_peak_bytes = 704 : i64, chosen_by = "cost model", estimated_cycles = 168 : i64, sizes = array<i64: 11>}} {
      %c0 = arith.constant 0 : index
      %tile = ktdp.get_compute_tile_id : index
      %view0 = ktdp.construct_memory_view %in0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32, "DDR">
      %tile0_offset = affine.apply #map(%tile, %c0)
      %tile0 = memref.reinterpret_cast %view0 to offset: [%tile0_offset], sizes: [1, 128], strides: [128, 1] : memref<1x128xf32, "DDR"> to memref<1x128xf32, strided<[128, 1], offset: ?>, "DDR">
      %out_view = ktdp.construct_memory_view %out, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32, "DDR">
      %out_tile_offset = affine.apply #map(%tile, %c0)
      %out_tile = memref.reinterpret_cast %out_view to offset: [%out_tile_offset], sizes: [1, 128], strides: [128, 1] : memref<1x128xf32, "DDR"> to memref<1x128xf32, strided<[128, 1], offset: ?>, "DDR">
      %c4 = arith.constant 4 : index
      %0 = arith.constant 0 : index
      %1 = arith.constant 32 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant {ktdf.tile_size = "cost model"} 11 : index
      %4 = arith.constant 3 : index
      %5 = memref.alloc(%3) {ktdf.address = 0 : i64} : memref<?x1x4xf32, "L1">
      %6 = memref.alloc(%3) {ktdf.address = 176 : i64} : memref<?x1x4xf32, "L1">
      %7 = memref.alloc(%3) {ktdf.address = 352 : i64} : memref<?x1x4xf32, "L1">
      %8 = memref.alloc(%3) {ktdf.address = 528 : i64} : memref<?x1x4xf32, "L1">
      scf.for %arg0 = %0 to %4 step %2 {
        %9 = ktdf.tiling.derive_size [%arg0 : %3], total_size = %1 : index
        %10 = ktdf.buffer_phase(%arg0) {num_phases = 2 : i64} : index
        %11 = ktdf.select_memref %10[%5, %6] : memref<?x1x4xf32, "L1">
        %12 = ktdf.select_memref %10[%7, %8] : memref<?x1x4xf32, "L1">
        ktdf.pipeline modulo(size : 2) {
          %13:3 = ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.token) {
            %14 = ktdf.create_token
            %15 = ktdf.create_token
            %16 = ktdf.create_token
            ktdf.private_yield %14, %15, %16 : !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%13#0) {
            %14 = arith.constant 0 : index
            %15 = ktdf.tiling.linearize_index [%arg0 : %3], [%14 : %2] : index
            %16 = arith.muli %15, %c4 : index
            %17 = arith.constant 4 : index
            %18 = arith.muli %9, %17 : index
            ktdf.data_transfer from %tile0[0, %16] size [1, %18] to %11[0, 0, 0] size [%9, 1, 4] : memref<1x128xf32, strided<[128, 1], offset: ?>, "DDR">, memref<?x1x4xf32, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%13#0) depends_out(%13#1) {
            scf.for %arg1 = %0 to %9 step %2 {
              ktdf.pipeline {
                %14:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, !ktdf.token, !ktdf.token) {
                  %15 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>
                  %16 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>
                  %17 = ktdf.create_token
                  %18 = ktdf.create_token
                  ktdf.private_yield %15, %16, %17, %18 : !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%14#2) {
                  ktdf.data_transfer from %11[%arg1, 0, 0] size [1, 1, 4] to %14#0 size [1, 4] : memref<?x1x4xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>
                } {applicable_units = ["L1LU"]}
                ktdf.stage depends_in(%14#2) depends_out(%14#3) {
                  %x0 = ktdf.read_from_fifo %14#0 : <"L1LU" -> "SFU", 4xf32> -> tensor<1x4xf32>
                  %15 = tensor.empty() : tensor<1x4xf32>
                  %v0 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%x0 : tensor<1x4xf32>) outs(%15 : tensor<1x4xf32>) {
                  ^bb0(%arg2: f32, %arg3: f32):
                    %16 = arith.addf %arg2, %arg2 : f32
                    linalg.yield %16 : f32
                  } -> tensor<1x4xf32>
                  ktdf.write_to_fifo %v0, %14#1 : tensor<1x4xf32>, <"SFU" -> "L1SU", 4xf32>
                } {applicable_units = ["SFU"]}
                ktdf.stage depends_in(%14#3) depends_out(none) {
                  ktdf.data_transfer from %14#1 size [1, 4] to %12[%arg1, 0, 0] size [1, 1, 4] : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, memref<?x1x4xf32, "L1">
                } {applicable_units = ["L1SU"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1LU", "SFU", "L1SU"]}
          ktdf.stage depends_in(%13#1) depends_out(%13#2) {
            %14 = arith.constant 0 : index
            %15 = ktdf.tiling.linearize_index [%arg0 : %3], [%14 : %2] : index
            %16 = arith.muli %15, %c4 : index
            %17 = arith.constant 4 : index
            %18 = arith.muli %9, %17 : index
            ktdf.data_transfer from %12[0, 0, 0] size [%9, 1, 4] to %out_tile[0, %16] size [1, %18] : memref<?x1x4xf32, "L1">, memref<1x128xf32, strided<[128, 1], offset: ?>, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      return
    }
  }
}

