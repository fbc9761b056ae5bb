// The pass reads the engine of every transfer from its stage's applicable_units,
// which path-expansion sets: on a pipeline that has not been path-expanded it
// fails at the first transfer whose stage names no engine.

// RUN: ktc-opt %s --arch toy -p scalar-broadcast-legalization --verify-diagnostics

func.func @before_path_expansion(%A: memref<4x8xf16, "DDR">, %b: memref<4x1xf16, "DDR">, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token) {
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
      %t0 = ktdf.create_token
      ktdf.private_yield %in#0, %in#1, %out, %t0 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      // expected-error@+1 {{'ktdf.data_transfer' sits in a stage that names no engine; run path-expansion before scalar-broadcast-legalization}}
      ktdf.data_transfer from %b[%i, 0] size [1, 1] to %p#1 size [1] : memref<4x1xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf16>
    }
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %s = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x8xf16>, tensor<1x1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.addf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}
