// A copy between cores passes unchanged: on toy's two cores, tile 1 copies a slot of
// its scratchpad buffer into the same buffer on tile 0 (table [-1, 0]), in a stage on
// the ring stop.

// RUN: ktc-opt %s --arch toy -p verify-schedule | filecheck %s

func.func @copy(%received: memref<2x8xf16, "L1">) attributes {grid = [2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
    } {applicable_units = ["RING"]}
  }
  return
}

// CHECK: ktdf.data_transfer from %received[1, 0] size [1, 8] to %received[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0>}
// CHECK: {applicable_units = ["RING"]}
