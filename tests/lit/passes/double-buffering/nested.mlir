// Nested pipelines, as stage-coarsening builds them: the outer pipeline moves a
// tile of rows per iteration of the tile loop (DMA in, a stage running the inner
// pipeline over the tile's vectors, DMA out) through tile buffers in the
// scratchpad whose row count is a tile size still to be chosen. The tile buffers
// are double buffered over the tile loop, with copies of the same dynamic size
// allocated before it; the inner pipeline hands data over through FIFOs only and
// is left alone, as is every loop inside the outer stages.

// RUN: ktc-opt %s --arch toy -p double-buffering | filecheck %s

func.func @add(%A: memref<8x16xf16, "DDR">, %C: memref<8x16xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8, %ts : index
  scf.for %t = %c0 to %tiles step %c1 {
    %rows = ktdf.tiling.derive_size [%t : %ts], total_size = %c8 : index
    %first = ktdf.tiling.linearize_index [%t : %ts], [%c0 : %c1] : index
    ktdf.pipeline {
      %p:5 = ktdf.private -> (memref<?x16xf16, "L1">, memref<?x16xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token) {
        %in = memref.alloc(%ts) : memref<?x16xf16, "L1">
        %out = memref.alloc(%ts) : memref<?x16xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        %t2 = ktdf.create_token
        ktdf.private_yield %in, %out, %t0, %t1, %t2 : memref<?x16xf16, "L1">, memref<?x16xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %A[%first, 0] size [%rows, 16] to %p#0[0, 0] size [%rows, 16] : memref<8x16xf16, "DDR">, memref<?x16xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        scf.for %r = %c0 to %rows step %c1 {
          scf.for %v = %c0 to %c2 step %c1 {
            %col = arith.muli %v, %c8 : index
            ktdf.pipeline {
              %q:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
                %fin = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
                %fout = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
                %u0 = ktdf.create_token
                %u1 = ktdf.create_token
                %u2 = ktdf.create_token
                ktdf.private_yield %fin, %fout, %u0, %u1, %u2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%q#2) {
                ktdf.data_transfer from %p#0[%r, %col] size [1, 8] to %q#0 size [8] : memref<?x16xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
              } {applicable_units = ["L1LU"]}
              ktdf.stage depends_in(%q#2) depends_out(%q#3) {
                %x = ktdf.read_from_fifo %q#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
                %y = arith.addf %x, %x : tensor<8xf16>
                ktdf.write_to_fifo %y, %q#1 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
              } {applicable_units = ["SFU"]}
              ktdf.stage depends_in(%q#3) depends_out(%q#4) {
                ktdf.data_transfer from %q#1 size [8] to %p#1[%r, %col] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<?x16xf16, "L1">
              } {applicable_units = ["L1SU"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      ktdf.stage depends_in(%p#3) depends_out(%p#4) {
        ktdf.data_transfer from %p#1[0, 0] size [%rows, 16] to %C[%first, 0] size [%rows, 16] : memref<?x16xf16, "L1">, memref<8x16xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @add(
// CHECK:         %[[TS:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[TILES:.+]] = arith.ceildivui %{{.+}}, %[[TS]] : index
// CHECK-NEXT:    %[[IN0:.+]] = memref.alloc(%[[TS]]) : memref<?x16xf16, "L1">
// CHECK-NEXT:    %[[IN1:.+]] = memref.alloc(%[[TS]]) : memref<?x16xf16, "L1">
// CHECK-NEXT:    %[[OUT0:.+]] = memref.alloc(%[[TS]]) : memref<?x16xf16, "L1">
// CHECK-NEXT:    %[[OUT1:.+]] = memref.alloc(%[[TS]]) : memref<?x16xf16, "L1">
// CHECK-NEXT:    scf.for %[[T:.+]] = %{{.+}} to %[[TILES]] step %{{.+}} {
// CHECK:           %[[PHASE:.+]] = ktdf.buffer_phase(%[[T]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:      %[[IN:.+]] = ktdf.select_memref %[[PHASE]][%[[IN0]], %[[IN1]]] : memref<?x16xf16, "L1">
// CHECK-NEXT:      %[[OUT:.+]] = ktdf.select_memref %[[PHASE]][%[[OUT0]], %[[OUT1]]] : memref<?x16xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
// CHECK-NEXT:        %{{.+}}:3 = ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:             ktdf.data_transfer from %{{.+}} to %[[IN]][0, 0] size [%{{.+}}, 16]
// CHECK:             scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NOT:           ktdf.buffer_phase
// CHECK:                 ktdf.pipeline {
// CHECK:                   ktdf.data_transfer from %[[IN]][%[[R]], %{{.+}}] size [1, 8]
// CHECK:                   ktdf.data_transfer from %{{.+}} size [8] to %[[OUT]][%[[R]], %{{.+}}] size [1, 8]
// CHECK:             ktdf.data_transfer from %[[OUT]][0, 0] size [%{{.+}}, 16] to
// CHECK-NEXT:      } {applicable_units = ["MNISU"]}
