// Path expansion turns the three-stage pipeline of a program (load from DDR into a
// FIFO to the SFU, compute, store from a FIFO to DDR) into five stages between
// real neighbours: DMA into a scratchpad buffer (MNILU), scratchpad into the SFU's
// FIFO (L1LU), compute (SFU), FIFO into a scratchpad buffer (L1SU), DMA out
// (MNISU). The toy device and Spyre route alike; the kernel orchestrator is left
// alone.

// RUN: ktc-opt %s --arch toy -p path-expansion | filecheck %s
// RUN: ktc-opt %s --arch spyre -p path-expansion | filecheck %s

module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [2]} {
    func.call @local_schedule_0(%a, %b, %c) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index)
}
module @local_schedule_0 {
  func.func @local_schedule_0(%A: memref<96x64xf16, "DDR">, %B: memref<96x64xf16, "DDR">, %C: memref<96x64xf16, "DDR">) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    scf.for %i = %c0 to %c96 step %c1 {
      scf.for %j = %c0 to %c64 step %c64 {
        ktdf.pipeline {
          %p:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
            %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
            %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
            %t0 = ktdf.create_token
            %t1 = ktdf.create_token
            %t2 = ktdf.create_token
            ktdf.private_yield %in#0, %in#1, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%p#3) {
            ktdf.data_transfer from %A[%i, %j] size [1, 64] to %p#0 size [1, 64] : memref<96x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
            ktdf.data_transfer from %B[%i, %j] size [1, 64] to %p#1 size [1, 64] : memref<96x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          }
          ktdf.stage depends_in(%p#3) depends_out(%p#4) {
            %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %init = tensor.empty() : tensor<1x64xf16>
            %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) {
            ^bb0(%u: f16, %v: f16, %w: f16):
              %s = arith.addf %u, %v : f16
              linalg.yield %s : f16
            } -> tensor<1x64xf16>
            ktdf.write_to_fifo %sum, %p#2 : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%p#4) depends_out(%p#5) {
            ktdf.data_transfer from %p#2 size [1, 64] to %C[%i, %j] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<96x64xf16, "DDR">
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    }
    func.return
  }
}

// CHECK:         func.func @add(
// CHECK-NEXT:      call @local_schedule_0(
// CHECK-LABEL:   module @local_schedule_0 {
// CHECK:           ktdf.pipeline {
// CHECK-NEXT:        %[[P:[a-zA-Z0-9_]+]]:11 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:          %[[A_L1:[a-zA-Z0-9_]+]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:          %[[B_L1:[a-zA-Z0-9_]+]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:          %[[IN:[a-zA-Z0-9_]+]]:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:          %[[OUT:[a-zA-Z0-9_]+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:          %[[C_L1:[a-zA-Z0-9_]+]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-COUNT-5:       ktdf.create_token
// CHECK-NEXT:          ktdf.private_yield %[[A_L1]], %[[B_L1]], %[[IN]]#0, %[[IN]]#1, %[[OUT]], %[[C_L1]],
// CHECK-NEXT:        }
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(%[[P]]#6) {
// CHECK-NEXT:          ktdf.data_transfer from %[[A:[a-zA-Z0-9_]+]][%[[I:[a-zA-Z0-9_]+]], %[[J:[a-zA-Z0-9_]+]]] size [1, 64] to %[[P]]#0[0, 0] size [1, 64] : memref<96x64xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:          ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[%[[I]], %[[J]]] size [1, 64] to %[[P]]#1[0, 0] size [1, 64] : memref<96x64xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 64] to %[[P]]#2 size [1, 64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 64] to %[[P]]#3 size [1, 64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:        } {applicable_units = ["L1LU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:          ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:          ktdf.read_from_fifo %[[P]]#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK:               arith.addf
// CHECK:               ktdf.write_to_fifo %{{.+}}, %[[P]]#4 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:        } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#8) depends_out(%[[P]]#9) {
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#4 size [1, 64] to %[[P]]#5[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
// CHECK-NEXT:        } {applicable_units = ["L1SU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#9) depends_out(%[[P]]#10) {
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#5[0, 0] size [1, 64] to %{{[a-zA-Z0-9_]+}}[%[[I]], %[[J]]] size [1, 64] : memref<1x64xf16, "L1">, memref<96x64xf16, "DDR">
// CHECK-NEXT:        } {applicable_units = ["MNISU"]}
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
