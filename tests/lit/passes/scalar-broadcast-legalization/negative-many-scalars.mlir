// A splat broadcasts one element. When the tile holds more than one row, an
// operand that does not vary along the vector holds one scalar per row, several
// per vector, and no single splat can fill the vector: the pass fails.

// RUN: ktc-opt %s --arch toy -p scalar-broadcast-legalization --verify-diagnostics

func.func @two_rows(%A: memref<4x4xf16, "L1">, %b: memref<4x1xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token) {
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      ktdf.private_yield %in#0, %in#1, %out, %t0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [2, 4] to %p#0 size [8] : memref<4x4xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %b[%i, 0] size [2, 1] to %p#1 size [2] : memref<4x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<2x4xf16>
      %s = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 2xf16> -> tensor<2x1xf16>
      %e = tensor.empty() : tensor<2x4xf16>
      // expected-error@+1 {{'linalg.generic' cannot take operand #1 as a scalar broadcast over the vector: it holds 2 elements per vector, and a splat broadcasts one}}
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<2x4xf16>, tensor<2x1xf16>) outs(%e : tensor<2x4xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.addf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<2x4xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<2x4xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}
