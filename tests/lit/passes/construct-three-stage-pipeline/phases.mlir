// A program with loops (as compute-group-extraction leaves a kernel whose loops
// carry data): it normalises a row by its sum, the sum accumulated block by block
// in an scf.for with iter_args. The program splits into phases at the loops, and
// each phase gets its pipelines. The accumulator lives in a scratchpad buffer
// ("L1" on toy): filled before the loop, loaded and stored back in each iteration
// (the loop becomes a reduction loop without iter_args), loaded after it. The sum
// crosses into the second loop through a one-element buffer; the splat of it is
// made again inside the loop.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %S: index, %row: index, %n: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %zero_block = arith.constant dense<0.0> : tensor<1x16xf16>
    %partial = scf.for %col = %c0 to %n step %c16 iter_args(%acc = %zero_block) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    %zero = arith.constant 0.0 : f16
    %init = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%partial : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %s_tile = ktdp.construct_access_tile %s_view[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %s_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    %sum_scalar = tensor.extract %sum[%c0] : tensor<1xf16>
    %sum_block = tensor.splat %sum_scalar : tensor<1x16xf16>
    scf.for %col = %c0 to %n step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.divf %x, %sum_block : tensor<1x16xf16>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }
}

// CHECK:       func.func @local_schedule_0(
// CHECK-NEXT:    %[[ACC:.+]] = memref.alloc() : memref<1x16xf16, "L1">
// CHECK-NEXT:    %[[SUM:.+]] = memref.alloc() : memref<1xf16, "L1">
// CHECK-NOT:     ktdp.construct_access_tile %[[ACC]]
// The accumulator's zero fill, before the loop:
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, !ktdf.token, !ktdf.token) {
// CHECK:           ktdf.stage depends_in(none) depends_out(%{{.+}}) {
// CHECK:             ktdf.write_to_fifo
// CHECK:           } {applicable_units = ["SFU"]}
// CHECK:             ktdf.data_transfer from %{{.+}}#0 size [1, 8] to %[[ACC]][%{{.+}}, %{{.+}}] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, memref<1x16xf16, "L1">
// The accumulation, in a loop that no longer carries anything:
// CHECK:       scf.for %[[COL:.+]] = %c0 to %n step %c16 {
// CHECK-NEXT:    %[[X_OFFSET:.+]] = affine.apply #{{.+}}(%row, %[[COL]])
// CHECK:           ktdf.private -> (!ktdf.fifo.slot<"L1" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:             ktdf.data_transfer from %[[ACC]][%[[I:.+]], %[[J:.+]]] size [1, 8] to %{{.+}}#0 size [1, 8]
// CHECK-NEXT:        ktdf.data_transfer from %x_tile[%[[I]], %[[J]]] size [1, 8] to %{{.+}}#1 size [1, 8]
// CHECK:             %[[A:.+]] = ktdf.read_from_fifo %{{.+}}#0 : <"L1" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK-NEXT:        %[[X:.+]] = ktdf.read_from_fifo %{{.+}}#1 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:             linalg.generic {{.*}} ins(%[[A]], %[[X]] : tensor<1x8xf16>, tensor<1x8xf16>)
// CHECK:             ktdf.data_transfer from %{{.+}}#2 size [1, 8] to %[[ACC]][%[[I]], %[[J]]] size [1, 8]
// CHECK:       } {loop_type = #ktdf.loop_type<reduction_loop>}
// The sum, from the whole accumulator, to S and to its buffer:
// CHECK:           ktdf.private -> (!ktdf.fifo.slot<"L1" -> "SFU", 16xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:             ktdf.data_transfer from %[[ACC]][%{{.+}}, 0] size [1, 16] to %{{.+}}#0 size [1, 16]
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:             ktdf.data_transfer from %{{.+}}#1 size [1] to %[[SUM]][%{{.+}}] size [1]
// CHECK-NEXT:        ktdf.data_transfer from %{{.+}}#2 size [1] to %s_tile[%{{.+}}] size [1]
// The normalisation reads the sum back at position 0:
// CHECK:       scf.for %{{.+}} = %c0 to %n step %c16 {
// CHECK:             ktdf.data_transfer from %[[SUM]][0] size [1] to %{{.+}}#1 size [1] : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 1xf16>
// CHECK:             arith.divf
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:  }
// CHECK-NEXT:  return
// CHECK-NOT:   ktdp.load
// CHECK-NOT:   tensor.extract
