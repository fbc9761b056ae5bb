// Nested pipelines as stage-coarsening builds them: the outer pipeline has core
// DMA stages (MNILU, MNISU) and a stage on the sub-core units (L1LU, SFU, L1SU)
// that walks the 8 rows of a tile, and 2 vectors per row, with an inner pipeline.
// On spyre (2 sub-cores per core) the row loop, the outermost parallel loop whose
// pipelines run on per-sub-core units only, is shared out over the 2 sub-cores:
// 8 rows, 4 per instance. The vector loop inside it stays a loop, and neither the
// tile loop around the outer pipeline nor a loop around a flat pipeline with a DMA
// stage is distributed: the core has one DMA engine, not one per sub-core.

// RUN: ktc-opt %s --arch spyre -p parallelize-loops-across-instances | filecheck %s

// CHECK-LABEL: func.func @coarsened(
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C8:.+]] = arith.constant 8 : index
// CHECK:         scf.for %[[T:.+]] = %[[C0]] to %{{.+}} step %[[C1]] {
// CHECK:           ktdf.pipeline {
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%{{.+}}) depends_out(%{{.+}}) {
// CHECK-NEXT:          ktdf.parallel (%[[R:.+]], %[[INST:.+]]) = (%[[C0]]) to (%[[C8]]) step (%[[C1]]) distribute(num_instances = 2) {
// CHECK-NEXT:            scf.for %[[V:.+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK:                   ktdf.pipeline {
// CHECK:                     ktdf.data_transfer from %{{.+}}[%[[R]], %{{.+}}] size [1, 64]
// CHECK:                     ktdf.data_transfer from %{{.+}} size [64] to %{{.+}}[%[[R]], %{{.+}}] size [1, 64]
// CHECK:                 } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:            ktdf.parallel_yield
// CHECK-NEXT:          }
// CHECK-NEXT:        } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @coarsened(%A: memref<64x128xf16, "DDR">, %C: memref<64x128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %t = %c0 to %c8 step %c1 {
    %first = arith.muli %t, %c8 : index
    ktdf.pipeline {
      %p:5 = ktdf.private -> (memref<8x128xf16, "L1">, memref<8x128xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token) {
        %in = memref.alloc() : memref<8x128xf16, "L1">
        %out = memref.alloc() : memref<8x128xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        %t2 = ktdf.create_token
        ktdf.private_yield %in, %out, %t0, %t1, %t2 : memref<8x128xf16, "L1">, memref<8x128xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %A[%first, 0] size [8, 128] to %p#0[0, 0] size [8, 128] : memref<64x128xf16, "DDR">, memref<8x128xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        scf.for %r = %c0 to %c8 step %c1 {
          scf.for %v = %c0 to %c2 step %c1 {
            %col = arith.muli %v, %c64 : index
            ktdf.pipeline {
              %q:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
                %fin = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                %fout = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
                %u0 = ktdf.create_token
                %u1 = ktdf.create_token
                %u2 = ktdf.create_token
                ktdf.private_yield %fin, %fout, %u0, %u1, %u2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%q#2) {
                ktdf.data_transfer from %p#0[%r, %col] size [1, 64] to %q#0 size [64] : memref<8x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              } {applicable_units = ["L1LU"]}
              ktdf.stage depends_in(%q#2) depends_out(%q#3) {
                %x = ktdf.read_from_fifo %q#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
                %y = arith.addf %x, %x : tensor<64xf16>
                ktdf.write_to_fifo %y, %q#1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
              } {applicable_units = ["SFU"]}
              ktdf.stage depends_in(%q#3) depends_out(%q#4) {
                ktdf.data_transfer from %q#1 size [64] to %p#1[%r, %col] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x128xf16, "L1">
              } {applicable_units = ["L1SU"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      ktdf.stage depends_in(%p#3) depends_out(%p#4) {
        ktdf.data_transfer from %p#1[0, 0] size [8, 128] to %C[%first, 0] size [8, 128] : memref<8x128xf16, "L1">, memref<64x128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @flat(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @flat(%A: memref<8x64xf16, "DDR">, %C: memref<8x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %p:8 = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %in = memref.alloc() : memref<1x64xf16, "L1">
        %fin = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %fout = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %out = memref.alloc() : memref<1x64xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        %t2 = ktdf.create_token
        %t3 = ktdf.create_token
        ktdf.private_yield %in, %fin, %fout, %out, %t0, %t1, %t2, %t3 : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#4) {
        ktdf.data_transfer from %A[%r, 0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<8x64xf16, "DDR">, memref<1x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#4) depends_out(%p#5) {
        ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %p#1 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%p#5) depends_out(%p#6) {
        %x = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        ktdf.write_to_fifo %x, %p#2 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%p#6) depends_out(%p#7) {
        ktdf.data_transfer from %p#2 size [64] to %p#3[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%p#7) depends_out(none) {
        ktdf.data_transfer from %p#3[0, 0] size [1, 64] to %C[%r, 0] size [1, 64] : memref<1x64xf16, "L1">, memref<8x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
