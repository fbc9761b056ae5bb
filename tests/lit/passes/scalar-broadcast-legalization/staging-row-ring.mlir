// An f32 row value already in the scratchpad, broadcast over a vector on the toy
// device: its load unit splats only 2-byte elements and its FIFO into the SFU carries
// no 4-byte scalar, so the ring stop (the engine that reads and writes the
// scratchpad) copies the scalar with stride 0 into a staging row of the vector's 4
// elements, which the load unit moves whole. A generic whose vector has one element
// takes the scalar as it is: it keeps the original FIFO read, and the wider generic
// gets a read of its own, from a FIFO slot filled by a copy of the load unit's
// transfer. Run twice the pass gives the same IR.

// RUN: ktc-opt %s --arch toy -p scalar-broadcast-legalization | filecheck %s
// RUN: ktc-opt %s --arch toy -p scalar-broadcast-legalization,scalar-broadcast-legalization | filecheck %s

func.func @row_max(%x: memref<8x4xf32, "L1">, %m: memref<8xf32, "L1">, %a: memref<8x1xf32, "L1">, %y: memref<8x4xf32, "L1">, %z: memref<8x1xf32, "L1">, %i: index) {
  ktdf.pipeline {
    %p:9 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %in:3 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
      %out:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      ktdf.private_yield %in#0, %in#1, %in#2, %out#0, %out#1, %t0, %t1, %t2, %t3 : !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#5) {
      ktdf.data_transfer from %x[%i, 0] size [1, 4] to %p#0 size [1, 4] : memref<8x4xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>
      ktdf.data_transfer from %m[%i] size [1] to %p#1 size [1] : memref<8xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
      ktdf.data_transfer from %a[%i, 0] size [1, 1] to %p#2 size [1, 1] : memref<8x1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#5) depends_out(%p#6) {
      %xs = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 4xf32> -> tensor<1x4xf32>
      %ms = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf32> -> tensor<1xf32>
      %as = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 1xf32> -> tensor<1x1xf32>
      %e = tensor.empty() : tensor<1x4xf32>
      %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xs, %ms : tensor<1x4xf32>, tensor<1xf32>) outs(%e : tensor<1x4xf32>) {
      ^bb0(%u: f32, %v: f32, %o: f32):
        %r = arith.subf %u, %v : f32
        linalg.yield %r : f32
      } -> tensor<1x4xf32>
      %e1 = tensor.empty() : tensor<1x1xf32>
      %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%as, %ms : tensor<1x1xf32>, tensor<1xf32>) outs(%e1 : tensor<1x1xf32>) {
      ^bb0(%u: f32, %v: f32, %o: f32):
        %r = arith.mulf %u, %v : f32
        linalg.yield %r : f32
      } -> tensor<1x1xf32>
      ktdf.write_to_fifo %d, %p#3 : tensor<1x4xf32>, <"SFU" -> "L1SU", 4xf32>
      ktdf.write_to_fifo %s, %p#4 : tensor<1x1xf32>, <"SFU" -> "L1SU", 1xf32>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#6) depends_out(%p#7) {
      ktdf.data_transfer from %p#3 size [1, 4] to %y[%i, 0] size [1, 4] : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf32>, memref<8x4xf32, "L1">
      ktdf.data_transfer from %p#4 size [1, 1] to %z[%i, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, memref<8x1xf32, "L1">
    } {applicable_units = ["L1SU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @row_max(
// CHECK-SAME:      %[[M:[a-zA-Z0-9_]+]]: memref<8xf32, "L1">
// CHECK:         %[[P:[a-zA-Z0-9_]+]]:9, %[[NEW:[a-zA-Z0-9_]+]]:3 = ktdf.private
// CHECK:           %[[SLOT:[0-9]+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>
// CHECK-NEXT:      %[[ROW:[0-9]+]] = memref.alloc() : memref<4xf32, "L1">
// CHECK-NEXT:      %[[TOKEN:[0-9]+]] = ktdf.create_token
// CHECK-NEXT:      ktdf.private_yield {{.*}}, %[[SLOT]], %[[ROW]], %[[TOKEN]] :
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[NEW]]#2) {
// CHECK-NEXT:      ktdf.data_transfer from %[[M]][%[[I:[a-zA-Z0-9_]+]]] size [1] to %[[NEW]]#1[0] size [4] {transfer_mode = "splat"} : memref<8xf32, "L1">, memref<4xf32, "L1">
// CHECK-NEXT:    } {applicable_units = ["RING"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[NEW]]#2) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%[[I]], 0] size [1, 4] to %[[P]]#0 size [1, 4]
// CHECK-NEXT:      ktdf.data_transfer from %[[M]][%[[I]]] size [1] to %[[P]]#1 size [1] : memref<8xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
// CHECK-NEXT:      ktdf.data_transfer from %[[NEW]]#1[0] size [4] to %[[NEW]]#0 size [4] : memref<4xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf32>
// CHECK-NOT:       transfer_mode
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:         %[[MS:[a-zA-Z0-9_]+]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 1xf32> -> tensor<1xf32>
// CHECK-NEXT:    %[[WIDE:[0-9]+]] = ktdf.read_from_fifo %[[NEW]]#0 : <"L1LU" -> "SFU", 4xf32> -> tensor<1x4xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{[a-zA-Z0-9_]+}}, %[[WIDE]] : tensor<1x4xf32>, tensor<1x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #{{map[0-9]*}}, #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{[a-zA-Z0-9_]+}}, %[[MS]] : tensor<1x1xf32>, tensor<1xf32>)
