// A copy between cores (a transfer with ktdf.to_tiles) is rejected unless it runs on
// the ring stop alone, copies between scratchpad buffers, and its table gives each
// tile of a one-wave grid -1 or a tile's id (its own: a copy within its scratchpad):
// each case below breaks one of these.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p verify-schedule

func.func @engine(%received: memref<2x8xf16, "L1">) attributes {grid = [2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' copies between cores, which device @toy does only on the interconnect stop RING; its stage runs on L1LU}}
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
    } {applicable_units = ["L1LU"]}
  }
  return
}

// -----

func.func @device_memory(%received: memref<2x8xf16, "L1">, %out: memref<2x8xf16, "DDR">) attributes {grid = [2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' copies between cores with a destination memref<2x8xf16, "DDR"> outside the scratchpad "L1"}}
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %out[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "DDR">
    } {applicable_units = ["RING"]}
  }
  return
}

// -----

func.func @two_waves(%received: memref<2x8xf16, "L1">) attributes {grid = [4]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' copies between cores in a grid of 4 tiles, which does not run in one wave on the 2 cores of device @toy}}
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0, -1, 2>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
    } {applicable_units = ["RING"]}
  }
  return
}

// -----

func.func @short_table(%received: memref<2x8xf16, "L1">) attributes {grid = [2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' has a ktdf.to_tiles table of 1 entries for a grid of 2 tiles}}
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
    } {applicable_units = ["RING"]}
  }
  return
}

// -----

func.func @outside_grid(%received: memref<2x8xf16, "L1">) attributes {grid = [2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      // expected-error@+1 {{'ktdf.data_transfer' has ktdf.to_tiles entry 2 for tile 0: an entry is -1 or the id of a tile, 0 .. 1}}
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: 2, -1>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
    } {applicable_units = ["RING"]}
  }
  return
}
