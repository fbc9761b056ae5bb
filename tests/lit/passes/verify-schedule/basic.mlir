// A schedule after path expansion passes unchanged on the devices it was built
// for: five stages (DMA in, scratchpad load, compute, scratchpad store, DMA out)
// whose transfers follow datapaths, whose FIFOs join neighbours and whose stages
// each name an engine. Toy and spyre have the same kinds, so one schedule serves
// both. Checking again changes nothing.

// RUN: ktc-opt %s --arch toy > %t.before
// RUN: ktc-opt %s --arch toy -p verify-schedule > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after
// RUN: ktc-opt %t.after -p verify-schedule,verify-schedule | diff %t.after -
// RUN: ktc-opt %s --arch spyre -p verify-schedule | filecheck %s

#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  module {
    func.func @add(%a: index, %b: index, %c: index) attributes {grid = [32]} {
      func.call @local_schedule_0(%a, %b, %c) : (index, index, index) -> ()
      return
    }
    func.func private @local_schedule_0(index, index, index)
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%A: memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, %B: memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, %C: memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">) attributes {grid = [32]} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      scf.for %i = %c0 to %c3 step %c1 {
        scf.for %j = %c0 to %c64 step %c8 {
          ktdf.pipeline {
            %p:10 = ktdf.private -> (memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %a_l1 = memref.alloc() : memref<1x8xf16, "L1">
              %b_l1 = memref.alloc() : memref<1x8xf16, "L1">
              %in:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
              %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
              %c_l1 = memref.alloc() : memref<1x8xf16, "L1">
              %t0 = ktdf.create_token
              %t1 = ktdf.create_token
              %t2 = ktdf.create_token
              %t3 = ktdf.create_token
              ktdf.private_yield %a_l1, %b_l1, %in#0, %in#1, %out, %c_l1, %t0, %t1, %t2, %t3 : memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%p#6) {
              ktdf.data_transfer from %A[%i, %j] size [1, 8] to %p#0[0, 0] size [1, 8] : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, memref<1x8xf16, "L1">
              ktdf.data_transfer from %B[%i, %j] size [1, 8] to %p#1[0, 0] size [1, 8] : memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">, memref<1x8xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%p#6) depends_out(%p#7) {
              ktdf.data_transfer from %p#0[0, 0] size [1, 8] to %p#2 size [8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
              ktdf.data_transfer from %p#1[0, 0] size [1, 8] to %p#3 size [8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%p#7) depends_out(%p#8) {
              %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
              %y = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
              %init = tensor.empty() : tensor<1x8xf16>
              %sum = linalg.generic {indexing_maps = [#identity, #identity, #identity], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x8xf16>, tensor<1x8xf16>) outs(%init : tensor<1x8xf16>) {
              ^bb0(%u: f16, %v: f16, %w: f16):
                %s = arith.addf %u, %v : f16
                linalg.yield %s : f16
              } -> tensor<1x8xf16>
              ktdf.write_to_fifo %sum, %p#4 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%p#8) depends_out(%p#9) {
              ktdf.data_transfer from %p#4 size [8] to %p#5[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%p#9) depends_out(none) {
              ktdf.data_transfer from %p#5[0, 0] size [1, 8] to %C[%i, %j] size [1, 8] : memref<1x8xf16, "L1">, memref<3x64xf16, strided<[64, 1], offset: ?>, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      return
    }
  }
}

// CHECK:       module @local_schedule_0 {
// CHECK:         ktdf.pipeline {
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:         ktdf.write_to_fifo %{{.*}} : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK:         } {applicable_units = ["MNISU"]}
