// line4's vector unit loads, computes and stores itself, so the three stages of the
// inner pipeline of row_sum run on one engine, one after the other. The load stage's
// loop of eight FIFO writes and the compute stage's loop of eight reads cannot be
// paired by order of emission; instead the load moves to where its vector is read
// (the k-th load at the k-th read, its loop variable the reading loop's), and the
// store of the row's sum to where it is written. No FIFO op is left in the program.

// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p convert-ktdf-to-dfir | filecheck %s

// CHECK:      dfir.program "VPU"
// CHECK-NOT:  dfir.send
// CHECK-NOT:  dfir.receive
// CHECK:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          scf.for %[[ROW:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          scf.for %[[K:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:            %[[COLUMN:[^ ]+]] = arith.muli %[[K]], %{{.*}} : index
// CHECK-NEXT:       %[[AT_ROW:[^ ]+]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK-NEXT:       %{{.*}} = arith.addi %[[AT_ROW]], %[[COLUMN]] : index
// CHECK:            %[[VECTOR:[^ ]+]] = dfir.load %{{.*}} : memref<32xf32>, vector<32xf32>
// CHECK-NEXT:       %[[ACC_VIEW:[^ ]+]] = dfir.view
// CHECK-NEXT:       %[[ACC:[^ ]+]] = dfir.load %[[ACC_VIEW]][%{{.*}}] : memref<32xf32>, vector<32xf32>
// CHECK-NEXT:       %{{.*}} = dfir.compute <add> %[[VECTOR]], %[[ACC]] : vector<32xf32>
// CHECK:          }
// CHECK:          dfir.reduce <add>
// CHECK:          %[[SUM:[^ ]+]] = dfir.load %{{.*}} : memref<1xf32>, vector<1xf32>
// CHECK:          dfir.store %[[SUM]], %{{.*}} : memref<1xf32>, vector<1xf32>
// CHECK-NEXT:   }
// CHECK-NOT:  dfir.send
// CHECK-NOT:  dfir.receive
// CHECK:      return

#map = affine_map<(d0, d1) -> (d0 * 256 + d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  module {
    func.func @row_sum(%x: index, %y: index) attributes {grid = [8]} {
      call @local_schedule_0(%x, %y) : (index, index) -> ()
      return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [8], ktdf.tile_sizes = {SPM_capacity = 262144 : i64, SPM_peak_bytes = 16704 : i64, chosen_by = "cost model", estimated_cycles = 1078 : i64, sizes = array<i64: 8>}} {
      %c0 = arith.constant 0 : index
      %rows_per_tile = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f32
      %tile = ktdp.get_compute_tile_id : index
      %first_row = arith.muli %tile, %rows_per_tile : index
      %x_view = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf32, "HBM">
      %y_view = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set1, memory_space = #ktdp.memory_space<global>} : memref<64xf32, "HBM">
      %x_tile_offset = affine.apply #map(%first_row, %c0)
      %x_tile = memref.reinterpret_cast %x_view to offset: [%x_tile_offset], sizes: [8, 256], strides: [256, 1] : memref<64x256xf32, "HBM"> to memref<8x256xf32, strided<[256, 1], offset: ?>, "HBM">
      %y_tile_offset = affine.apply #map1(%first_row)
      %y_tile = memref.reinterpret_cast %y_view to offset: [%y_tile_offset], sizes: [8], strides: [1] : memref<64xf32, "HBM"> to memref<8xf32, strided<[1], offset: ?>, "HBM">
      %c0_0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %0 = arith.constant {ktdf.tile_size = "cost model"} 8 : index
      %1 = memref.alloc(%0) {ktdf.address = 0 : i64} : memref<?x1x256xf32, "SPM">
      %2 = memref.alloc(%0) {ktdf.address = 8192 : i64} : memref<?x1x256xf32, "SPM">
      %3 = memref.alloc(%0) {ktdf.address = 16384 : i64} : memref<?x1xf32, "SPM">
      %4 = memref.alloc(%0) {ktdf.address = 16448 : i64} : memref<?x1xf32, "SPM">
      %5 = arith.constant 8 : index
      %6 = ktdf.buffer_phase(%c0_0) {num_phases = 2 : i64} : index
      %7 = ktdf.select_memref %6[%1, %2] : memref<?x1x256xf32, "SPM">
      %8 = ktdf.select_memref %6[%3, %4] : memref<?x1xf32, "SPM">
      ktdf.pipeline modulo(size : 2) {
        %9:3 = ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.token) {
          %10 = ktdf.create_token
          %11 = ktdf.create_token
          %12 = ktdf.create_token
          ktdf.private_yield %10, %11, %12 : !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%9#0) {
          %10 = arith.constant 0 : index
          %11 = ktdf.tiling.linearize_index [%c0_0 : %0], [%10 : %c1] : index
          ktdf.data_transfer from %x_tile[%11, 0] size [8, 256] to %7[0, 0, 0] size [8, 1, 256] : memref<8x256xf32, strided<[256, 1], offset: ?>, "HBM">, memref<?x1x256xf32, "SPM">
        } {applicable_units = ["DMA"]}
        ktdf.stage depends_in(%9#0) depends_out(%9#1) {
          scf.for %arg0 = %c0_0 to %5 step %c1 {
            ktdf.pipeline {
              %10:6 = ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>, !ktdf.fifo.slot<"VPU" -> "SPM", 1xf32>, memref<1x32xf32, "SPM">, memref<1xf32, "SPM">) {
                %11 = ktdf.create_token
                %12 = ktdf.create_token
                %13 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>
                %14 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"VPU" -> "SPM", 1xf32>
                %15 = memref.alloc() {ktdf.address = 16512 : i64} : memref<1x32xf32, "SPM">
                %16 = memref.alloc() {ktdf.address = 16640 : i64} : memref<1xf32, "SPM">
                ktdf.private_yield %11, %12, %13, %14, %15, %16 : !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>, !ktdf.fifo.slot<"VPU" -> "SPM", 1xf32>, memref<1x32xf32, "SPM">, memref<1xf32, "SPM">
              }
              ktdf.stage depends_in(none) depends_out(%10#0) {
                %11 = arith.constant 0 : index
                %12 = arith.constant 8 : index
                %13 = arith.constant 1 : index
                scf.for %arg1 = %11 to %12 step %13 {
                  ktdf.data_transfer from %7[%arg0, 0, %arg1 * 32] size [1, 1, 32] to %10#2 size [1, 32] : memref<?x1x256xf32, "SPM">, !ktdf.fifo.slot<"SPM" -> "VPU", 32xf32>
                } {loop_type = #ktdf.loop_type<reduction_loop>}
              } {applicable_units = ["VPU"]}
              ktdf.stage depends_in(%10#0) depends_out(%10#1) {
                %11 = arith.constant 0 : index
                %12 = arith.constant 8 : index
                %13 = arith.constant 1 : index
                linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%10#5 : memref<1xf32, "SPM">) {
                ^bb0(%arg1: f32):
                  linalg.yield %zero : f32
                }
                %14 = arith.constant 0.000000e+00 : f32
                linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel", "parallel"]} outs(%10#4 : memref<1x32xf32, "SPM">) {
                ^bb0(%arg1: f32):
                  linalg.yield %14 : f32
                }
                scf.for %arg1 = %11 to %12 step %13 {
                  %15 = ktdf.read_from_fifo %10#2 : <"SPM" -> "VPU", 32xf32> -> memref<1x32xf32, "SPM">
                  linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%15 : memref<1x32xf32, "SPM">) outs(%10#4 : memref<1x32xf32, "SPM">) {
                  ^bb0(%value: f32, %acc: f32):
                    %next = arith.addf %value, %acc : f32
                    linalg.yield %next : f32
                  }
                } {loop_type = #ktdf.loop_type<reduction_loop>}
                linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "reduction"]} ins(%10#4 : memref<1x32xf32, "SPM">) outs(%10#5 : memref<1xf32, "SPM">) {
                ^bb0(%arg1: f32, %arg2: f32):
                  %15 = arith.addf %arg2, %arg1 : f32
                  linalg.yield %15 : f32
                }
                ktdf.write_to_fifo %10#5, %10#3 : memref<1xf32, "SPM">, <"VPU" -> "SPM", 1xf32>
              } {applicable_units = ["VPU"]}
              ktdf.stage depends_in(%10#1) depends_out(none) {
                ktdf.data_transfer from %10#3 size [1] to %8[%arg0, 0] size [1, 1] : !ktdf.fifo.slot<"VPU" -> "SPM", 1xf32>, memref<?x1xf32, "SPM">
              } {applicable_units = ["VPU"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {applicable_units = ["VPU"]}
        ktdf.stage depends_in(%9#1) depends_out(%9#2) {
          %10 = arith.constant 0 : index
          %11 = ktdf.tiling.linearize_index [%c0_0 : %0], [%10 : %c1] : index
          ktdf.data_transfer from %8[0, 0] size [8, 1] to %y_tile[%11] size [8] : memref<?x1xf32, "SPM">, memref<8xf32, strided<[1], offset: ?>, "HBM">
        } {applicable_units = ["DMA"]}
      }
      return
    }
  }
}

