// Nothing to legalize: an elementwise generic whose inputs all vary along the
// vector dimension, and a row vector broadcast over the rows ((d0, d1) -> (d1),
// or (d0, d1) -> (0, d1)), which still brings a full vector per row. The pass
// leaves both untouched.

// RUN: ktc-opt %s --split-input-file --arch toy > %t.before
// RUN: ktc-opt %s --split-input-file --arch toy -p scalar-broadcast-legalization > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

func.func @elementwise(%A: memref<4x8xf16, "L1">, %B: memref<4x8xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token) {
      %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      ktdf.private_yield %in#0, %in#1, %out, %t0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %B[%i, 0] size [1, 8] to %p#1 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %o: f16):
        %d = arith.addf %u, %v : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#2 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @elementwise(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>,
// CHECK-NOT:     splat

// -----

func.func @row_vector(%A: memref<4x8xf16, "L1">, %r: memref<8xf16, "L1">, %s: memref<1x8xf16, "L1">, %i: index) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token) {
      %in:3 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t0 = ktdf.create_token
      ktdf.private_yield %in#0, %in#1, %in#2, %out, %t0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#4) {
      ktdf.data_transfer from %A[%i, 0] size [1, 8] to %p#0 size [8] : memref<4x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %r[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %s[0, 0] size [1, 8] to %p#2 size [8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#4) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %y = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %w = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y, %w : tensor<1x8xf16>, tensor<8xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%u: f16, %v: f16, %q: f16, %o: f16):
        %d = arith.addf %u, %v : f16
        %f = arith.mulf %d, %q : f16
        linalg.yield %f : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %z, %p#3 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @row_vector(
// CHECK:         ktdf.read_from_fifo %{{.+}}#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
// CHECK:         linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}]
// CHECK-NOT:     splat
