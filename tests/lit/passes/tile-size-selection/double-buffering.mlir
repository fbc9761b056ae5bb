// Double-buffered buffers count twice. The copy program of basic.mlir gets 2 rows
// per tile on the 512-byte scratchpad with one buffer; here the buffer rotates,
// once as a modulo(size : 2) pipeline's private buffer and once as the two allocs
// that double-buffering makes (ktdf.select_memref), so only 1 row (2 x 256 bytes)
// fits. On the 64 KiB toy scratchpad the model's choice, 4 rows, still fits.

// RUN: ktc-opt %s --split-input-file --arch %S/Inputs/toy-512b-scratchpad.mlir -p tile-size-selection | filecheck %s --check-prefix=SMALL
// RUN: ktc-opt %s --split-input-file --arch toy -p tile-size-selection | filecheck %s

module @modulo {
  func.func @modulo(%a: memref<32x128xf16, "DDR">, %c: memref<32x128xf16, "DDR">) {
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

// SMALL-LABEL: func.func @modulo(
// SMALL-SAME:      L1_peak_bytes = 512 : i64
// SMALL-SAME:      sizes = array<i64: 1>
// SMALL:         arith.constant {ktdf.tile_size = "cost model"} 1 : index

// CHECK-LABEL: func.func @modulo(
// CHECK-SAME:      L1_peak_bytes = 2048 : i64
// CHECK-SAME:      sizes = array<i64: 4>

// -----

module @pair {
  func.func @pair(%a: memref<32x128xf16, "DDR">, %c: memref<32x128xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %tiles = arith.ceildivui %c32, %rows : index
    %ping = memref.alloc(%rows) : memref<?x128xf16, "L1">
    %pong = memref.alloc(%rows) : memref<?x128xf16, "L1">
    scf.for %t = %c0 to %tiles step %c1 {
      %n = ktdf.tiling.derive_size [%t : %rows], total_size = %c32 : index
      %first = arith.muli %t, %rows : index
      %phase = ktdf.buffer_phase(%t) {num_phases = 2 : i64} : index
      %buf = ktdf.select_memref %phase[%ping, %pong] : memref<?x128xf16, "L1">
      ktdf.pipeline modulo(size : 2) {
        %p:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
          %t0 = ktdf.create_token
          %t1 = ktdf.create_token
          ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#0) {
          ktdf.data_transfer from %a[%first, 0] size [%n, 128] to %buf[0, 0] size [%n, 128] : memref<32x128xf16, "DDR">, memref<?x128xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#0) depends_out(%p#1) {
          ktdf.data_transfer from %buf[0, 0] size [%n, 128] to %c[%first, 0] size [%n, 128] : memref<?x128xf16, "L1">, memref<32x128xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    memref.dealloc %ping : memref<?x128xf16, "L1">
    memref.dealloc %pong : memref<?x128xf16, "L1">
    func.return
  }
}

// SMALL-LABEL: func.func @pair(
// SMALL-SAME:      L1_peak_bytes = 512 : i64
// SMALL-SAME:      sizes = array<i64: 1>

// CHECK-LABEL: func.func @pair(
// CHECK-SAME:      L1_peak_bytes = 2048 : i64
// CHECK-SAME:      sizes = array<i64: 4>
