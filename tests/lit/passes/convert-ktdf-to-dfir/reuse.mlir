// Two steps of one program whose buffers take the same scratchpad bytes (the
// addresses address-assignment gives a step's buffers when the one before is done with
// them): each doubles a row, the first a into c, the second b into d. Each engine kind
// that touches the first step's buffers signals, after that step, each other kind that
// touches the second's, before it: the DMA-in engine waits until the load unit has read
// the first row before it writes the second over it, and the store unit until DMA-out
// has copied the first result before it writes the second over it.

// RUN: ktc-opt %s --arch toy -p convert-ktdf-to-dfir | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
func.func @twice(%a: index, %b: index, %c: index, %d: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %a_view = ktdp.construct_memory_view %a, sizes: [1, 8], strides: [8, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16, "DDR">
  %b_view = ktdp.construct_memory_view %b, sizes: [1, 8], strides: [8, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16, "DDR">
  %c_view = ktdp.construct_memory_view %c, sizes: [1, 8], strides: [8, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16, "DDR">
  %d_view = ktdp.construct_memory_view %d, sizes: [1, 8], strides: [8, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x8xf16, "DDR">
  ktdf.pipeline {
    %p1:8 = ktdf.private -> (memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<1x8xf16, "L1">
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %z = memref.alloc() {ktdf.address = 16 : i64} : memref<1x8xf16, "L1">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      ktdf.private_yield %x, %f, %g, %z, %t0, %t1, %t2, %t3 : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p1#4) {
      ktdf.data_transfer from %a_view[%c0, %c0] size [1, 8] to %p1#0[0, 0] size [1, 8] : memref<1x8xf16, "DDR">, memref<1x8xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p1#4) depends_out(%p1#5) {
      ktdf.data_transfer from %p1#0[0, 0] size [1, 8] to %p1#1 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p1#5) depends_out(%p1#6) {
      %u = ktdf.read_from_fifo %p1#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%l: f16, %o: f16):
        %twice = arith.addf %l, %l : f16
        linalg.yield %twice : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %s, %p1#2 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p1#6) depends_out(%p1#7) {
      ktdf.data_transfer from %p1#2 size [1, 8] to %p1#3[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p1#7) depends_out(none) {
      ktdf.data_transfer from %p1#3[0, 0] size [1, 8] to %c_view[%c0, %c0] size [1, 8] : memref<1x8xf16, "L1">, memref<1x8xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  ktdf.pipeline {
    %p2:8 = ktdf.private -> (memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<1x8xf16, "L1">
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %z = memref.alloc() {ktdf.address = 16 : i64} : memref<1x8xf16, "L1">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      ktdf.private_yield %x, %f, %g, %z, %t0, %t1, %t2, %t3 : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p2#4) {
      ktdf.data_transfer from %b_view[%c0, %c0] size [1, 8] to %p2#0[0, 0] size [1, 8] : memref<1x8xf16, "DDR">, memref<1x8xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p2#4) depends_out(%p2#5) {
      ktdf.data_transfer from %p2#0[0, 0] size [1, 8] to %p2#1 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p2#5) depends_out(%p2#6) {
      %u = ktdf.read_from_fifo %p2#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%l: f16, %o: f16):
        %twice = arith.addf %l, %l : f16
        linalg.yield %twice : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %s, %p2#2 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p2#6) depends_out(%p2#7) {
      ktdf.data_transfer from %p2#2 size [1, 8] to %p2#3[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p2#7) depends_out(none) {
      ktdf.data_transfer from %p2#3[0, 0] size [1, 8] to %d_view[%c0, %c0] size [1, 8] : memref<1x8xf16, "L1">, memref<1x8xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  return
}

// CHECK:        dfir.program "MNILU"
// CHECK:          dfir.dma
// CHECK:          dfir.sync_send %{{.*}} id [[FIRST_IN:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK:          dfir.sync_recv %{{.*}} id [[X_FREE:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK-NEXT:     dfir.view
// CHECK-NEXT:     dfir.view
// CHECK-NEXT:     dfir.dma

// CHECK:        dfir.program "L1LU"
// CHECK:          dfir.sync_recv %{{.*}} id [[FIRST_IN]] : !dfir.unit<"MNILU">
// CHECK:          dfir.send
// CHECK:          dfir.sync_send %{{.*}} id [[X_FREE]] : !dfir.unit<"MNILU">

// CHECK:        dfir.program "L1SU"
// CHECK:          dfir.store
// CHECK:          dfir.sync_recv %{{.*}} id [[Z_FREE:[0-9]+]] : !dfir.unit<"MNISU">
// CHECK:          dfir.store

// CHECK:        dfir.program "MNISU"
// CHECK:          dfir.dma
// CHECK:          dfir.sync_send %{{.*}} id [[Z_FREE]] : !dfir.unit<"L1SU">
