// A stage signals the next when its whole run is done, so the cost model's pipeline
// fill takes one run of every stage with the trips of the loops inside it: here each
// tile of an 8x128 f16 copy is moved in 64-column pieces, %chunks pieces per tile,
// through a double-buffered pipeline (modulo 2).
// One piece per tile (two tiles) fills in 228 cycles, a load and a store of 112
// (104 of route latency, 1 KiB at 128 bytes a cycle) each plus a scalar and a
// control instruction (spyre's scalar_cycles: the piece's column, its loop trip),
// and its DMA engines are busy 56 (26 per copy, a quarter of the latency, with the
// 2 instructions): 284 in all. Both pieces in one tile keep the store stage waiting
// for the second piece's copy, 28 cycles more per stage: 340. Counting one piece per
// stage in the fill, the two would tie at 276 and the larger tile would be taken.

// RUN: ktc-opt %s --arch spyre -p tile-size-selection | filecheck %s

module @local_schedule_0 {
  func.func @local_schedule_0(%a: memref<8x128xf16, "DDR">, %c: memref<8x128xf16, "DDR">) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %chunks = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %tiles = arith.ceildivui %c2, %chunks : index
    scf.for %t = %c0 to %tiles step %c1 {
      ktdf.pipeline modulo(size : 2) {
        %p:3 = ktdf.private -> (memref<?x8x64xf16, "L1">, !ktdf.token, !ktdf.token) {
          %buf = memref.alloc(%chunks) : memref<?x8x64xf16, "L1">
          %t0 = ktdf.create_token
          %t1 = ktdf.create_token
          ktdf.private_yield %buf, %t0, %t1 : memref<?x8x64xf16, "L1">, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#1) {
          scf.for %k = %c0 to %chunks step %c1 {
            %column = ktdf.tiling.linearize_index [%t : %chunks], [%k : %c1] : index
            ktdf.data_transfer from %a[0, %column] size [8, 64] to %p#0[%k, 0, 0] size [1, 8, 64] : memref<8x128xf16, "DDR">, memref<?x8x64xf16, "L1">
          }
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#1) depends_out(%p#2) {
          scf.for %k = %c0 to %chunks step %c1 {
            %column = ktdf.tiling.linearize_index [%t : %chunks], [%k : %c1] : index
            ktdf.data_transfer from %p#0[%k, 0, 0] size [1, 8, 64] to %c[0, %column] size [8, 64] : memref<?x8x64xf16, "L1">, memref<8x128xf16, "DDR">
          }
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      ktdf.tile_sizes = {L1_capacity = 2097152 : i64, L1_peak_bytes = 2048 : i64, chosen_by = "cost model", estimated_cycles = 284 : i64, sizes = array<i64: 1>}
// CHECK:         %[[CHUNKS:.+]] = arith.constant {ktdf.tile_size = "cost model"} 1 : index
// CHECK-NOT:     ktdf.tiling.reserve_size
