// At pre_scheduling, the device's patterns replace spyreop intrinsics in the
// compute stage by its templates: exp becomes math.exp (with fast math for f32:
// that pattern has the higher benefit, so it is tried before the general one), and
// the f16 sigmoid becomes 1 / (1 + exp(-x)). The f32 sigmoid matches no pattern,
// and sqrt has a pattern only at pre_mapping: both stay. The shipped devices and
// the line4 test chip have patterns only at pre_mapping, so at pre_scheduling the
// pass changes nothing there. Real MLIR accepts the result.

// RUN: ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=pre_scheduling}' | filecheck %s
// RUN: ktc-opt %s --arch toy > %t.toy
// RUN: ktc-opt %s --arch toy -p 'apply-arch-patterns{point=pre_scheduling}' | diff %t.toy -
// RUN: ktc-opt %s --arch spyre > %t.spyre
// RUN: ktc-opt %s --arch spyre -p 'apply-arch-patterns{point=pre_scheduling}' | diff %t.spyre -
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir > %t.line4
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p 'apply-arch-patterns{point=pre_scheduling}' | diff %t.line4 -
// RUN: %if mlir %{ ktc-opt %s --arch %S/Inputs/intrinsics.mlir -p 'apply-arch-patterns{point=pre_scheduling}' --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s %}

func.func @local_schedule_0(%A: memref<8xf16, "DDR">, %B: memref<8xf32, "DDR">, %C: memref<8xf16, "DDR">) attributes {grid = [1]} {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
      %out = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %A[0] size [8] to %p#0 size [8] : memref<8xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xf16>
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 8xf16> -> tensor<8xf16>
      %init = tensor.empty() : tensor<8xf16>
      %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%init : tensor<8xf16>) {
      ^bb0(%in: f16, %acc: f16):
        %s = spyreop.sigmoid %in : f16
        %e = spyreop.exp %s : f16
        %r = spyreop.sqrt %e : f16
        %w = arith.extf %r : f16 to f32
        %ws = spyreop.sigmoid %w : f32
        %we = spyreop.exp %ws : f32
        %n = arith.truncf %we : f32 to f16
        linalg.yield %n : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %y, %p#1 : tensor<8xf16>, <"SFU" -> "DDR", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#1 size [8] to %C[0] size [8] : !ktdf.fifo.slot<"SFU" -> "DDR", 8xf16>, memref<8xf16, "DDR">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:      %[[ONE:.+]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:      %[[NEG:.+]] = arith.negf %[[IN]] : f16
// CHECK-NEXT:      %[[EXP:.+]] = math.exp %[[NEG]] : f16
// CHECK-NEXT:      %[[SUM:.+]] = arith.addf %[[ONE]], %[[EXP]] : f16
// CHECK-NEXT:      %[[SIG:.+]] = arith.divf %[[ONE]], %[[SUM]] : f16
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[SIG]] : f16
// CHECK-NEXT:      %[[R:.+]] = spyreop.sqrt %[[E]] : f16
// CHECK-NEXT:      %[[W:.+]] = arith.extf %[[R]] : f16 to f32
// CHECK-NEXT:      %[[WS:.+]] = spyreop.sigmoid %[[W]] : f32
// CHECK-NEXT:      %{{.+}} = math.exp %[[WS]] fastmath<fast> : f32
// CHECK-NOT:       spyreop.exp
// CHECK:         } {applicable_units = ["SFU"]}
