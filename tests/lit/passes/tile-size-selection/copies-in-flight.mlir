// On spyre a DMA engine has 4 copies in flight (the arch file's ktdf_arch.outstanding),
// so the cost model charges each copy of the copy program of basic.mlir (32 rows of
// 128 f16), here double-buffered (modulo 2), its 104 cycles of route latency only
// once per pipeline fill and, per tile, its bytes at 128 a cycle or a quarter of the
// latency, whichever is more: 16 rows (2 tiles, one buffer each) has the best
// estimate, 336 cycles, against 400 for one tile of all 32 rows, 378 for 3 tiles of
// 11 (the third waiting for the first's buffer) and 480 for 4 tiles of 8.

// RUN: ktc-opt %s --arch spyre -p tile-size-selection | filecheck %s

module @local_schedule_0 {
  func.func @local_schedule_0(%a: memref<32x128xf16, "DDR">, %c: memref<32x128xf16, "DDR">) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %tiles = arith.ceildivui %c32, %rows : index
    scf.for %t = %c0 to %tiles step %c1 {
      %n = ktdf.tiling.derive_size [%t : %rows], total_size = %c32 : index
      %first = arith.muli %t, %rows : index
      ktdf.pipeline modulo(size : 2) {
        %p:3 = ktdf.private -> (memref<?x128xf16, "L1">, !ktdf.token, !ktdf.token) {
          %buf = memref.alloc(%rows) : memref<?x128xf16, "L1">
          %t0 = ktdf.create_token
          %t1 = ktdf.create_token
          ktdf.private_yield %buf, %t0, %t1 : memref<?x128xf16, "L1">, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#1) {
          ktdf.data_transfer from %a[%first, 0] size [%n, 128] to %p#0[0, 0] size [%n, 128] : memref<32x128xf16, "DDR">, memref<?x128xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#1) depends_out(%p#2) {
          ktdf.data_transfer from %p#0[0, 0] size [%n, 128] to %c[%first, 0] size [%n, 128] : memref<?x128xf16, "L1">, memref<32x128xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      ktdf.tile_sizes = {L1_capacity = 2097152 : i64, L1_peak_bytes = 8192 : i64, chosen_by = "cost model", estimated_cycles = 336 : i64, sizes = array<i64: 16>}
// CHECK:         %[[ROWS:.+]] = arith.constant {ktdf.tile_size = "cost model"} 16 : index
// CHECK-NEXT:    %[[TILES:.+]] = arith.constant 2 : index
// CHECK-NEXT:    scf.for %{{.+}} = %{{.+}} to %[[TILES]] step
// CHECK-NOT:     ktdf.tiling.reserve_size
