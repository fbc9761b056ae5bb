// The rows per tile of a copy program (32 rows of 128 f16 through one scratchpad
// buffer per tile) are chosen by the cost model: on the toy device each DMA pays
// 20 cycles of latency, so few large tiles amortize it, while the first tile in
// and the last tile out grow with the tile, and with one buffer a tile's load waits
// for the store of the tile before (the pipeline's turnaround). 16 rows has the best
// estimate (2 tiles, 1104 cycles, against 1184 for 8 rows and 1596 for one tile of
// 32) and takes 4 KiB of the 64 KiB scratchpad. On the same device with a 512-byte
// scratchpad at most 2 rows (512 bytes) fit, and 2 is chosen: the choice follows the
// arch file's scratchpad size. The loop bound and the tile's row count fold to
// constants when the tile divides 32.

// RUN: ktc-opt %s --arch toy -p tile-size-selection | filecheck %s
// RUN: ktc-opt %s --arch %S/Inputs/toy-512b-scratchpad.mlir -p tile-size-selection | filecheck %s --check-prefix=SMALL
// RUN: ktc-opt %s --arch %S/Inputs/toy-512b-scratchpad.mlir -p tile-size-selection,canonicalize,address-assignment | filecheck %s --check-prefix=FITS

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
      ktdf.pipeline {
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
// CHECK-SAME:      ktdf.tile_sizes = {L1_capacity = 65536 : i64, L1_peak_bytes = 4096 : i64, chosen_by = "cost model", estimated_cycles = 1104 : i64, sizes = array<i64: 16>}
// CHECK:         %[[ROWS:.+]] = arith.constant {ktdf.tile_size = "cost model"} 16 : index
// CHECK-NEXT:    %[[TILES:.+]] = arith.constant 2 : index
// CHECK-NEXT:    scf.for %[[T:.+]] = %{{.+}} to %[[TILES]] step
// CHECK-NEXT:      %[[N:.+]] = arith.constant 16 : index
// CHECK-NEXT:      arith.muli %[[T]], %[[ROWS]] : index
// CHECK:             memref.alloc(%[[ROWS]]) : memref<?x128xf16, "L1">
// CHECK:             ktdf.data_transfer from %{{.+}} size [%[[N]], 128] to
// CHECK-NOT:     ktdf.tiling

// SMALL-LABEL: func.func @local_schedule_0(
// SMALL-SAME:      ktdf.tile_sizes = {L1_capacity = 512 : i64, L1_peak_bytes = 512 : i64, chosen_by = "cost model", estimated_cycles = 1664 : i64, sizes = array<i64: 2>}
// SMALL:         arith.constant {ktdf.tile_size = "cost model"} 2 : index
// SMALL-NEXT:    arith.constant 16 : index

// The chosen size fits: address assignment places the buffer at 0.
// FITS:          memref.alloc(%{{.+}}) {ktdf.address = 0 : i64} : memref<?x128xf16, "L1">
