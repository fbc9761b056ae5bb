// Trip counts known only at run time are distributed too: a loop up to a kernel
// argument, and a loop over tiles whose size is still a tile-size placeholder
// (ceildiv(10, ts) tiles); the outermost loop is taken, so the row loop of each
// tile (derive_size rows) stays inside it. Each instance's share is computed from
// the bounds when the program runs.

// RUN: ktc-opt %s --arch spyre -p parallelize-loops-across-instances | filecheck %s

// CHECK-LABEL: func.func @argument_bound(
// CHECK-SAME:      %{{[^:]+}}: memref<?x64xf16, "L1">, %[[N:[^:]+]]: index)
// CHECK:         ktdf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}) to (%[[N]]) step (%{{.+}}) distribute(num_instances = 2) {
func.func @argument_bound(%buf: memref<?x64xf16, "L1">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %r = %c0 to %n step %c1 {
    ktdf.pipeline {
      %q:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
        %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %u0 = ktdf.create_token
        %u1 = ktdf.create_token
        ktdf.private_yield %f, %u0, %u1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#1) {
        %zero = arith.constant dense<0.000000e+00> : tensor<64xf16>
        ktdf.write_to_fifo %zero, %q#0 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#1) depends_out(%q#2) {
        ktdf.data_transfer from %q#0 size [64] to %buf[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<?x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @tile_rows(
// CHECK:         %[[TS:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[TILES:.+]] = arith.ceildivui %{{.+}}, %[[TS]] : index
// CHECK-NEXT:    ktdf.parallel (%[[T:.+]], %{{.+}}) = (%{{.+}}) to (%[[TILES]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:      %[[ROWS:.+]] = ktdf.tiling.derive_size [%[[T]] : %[[TS]]], total_size = %{{.+}} : index
// CHECK-NEXT:      scf.for %[[R:.+]] = %{{.+}} to %[[ROWS]] step %{{.+}} {
// CHECK-NEXT:        %{{.+}} = ktdf.tiling.linearize_index [%[[T]] : %[[TS]]], [%[[R]] : %{{.+}}] : index
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      ktdf.parallel_yield
func.func @tile_rows(%buf: memref<10x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c10, %ts : index
  scf.for %t = %c0 to %tiles step %c1 {
    %rows = ktdf.tiling.derive_size [%t : %ts], total_size = %c10 : index
    scf.for %r = %c0 to %rows step %c1 {
      %row = ktdf.tiling.linearize_index [%t : %ts], [%r : %c1] : index
      ktdf.pipeline {
        %q:3 = ktdf.private -> (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
          %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %u0 = ktdf.create_token
          %u1 = ktdf.create_token
          ktdf.private_yield %f, %u0, %u1 : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%q#1) {
          %zero = arith.constant dense<0.000000e+00> : tensor<64xf16>
          ktdf.write_to_fifo %zero, %q#0 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%q#1) depends_out(%q#2) {
          ktdf.data_transfer from %q#0 size [64] to %buf[%row, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<10x64xf16, "L1">
        } {applicable_units = ["L1SU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
