// With serial=true (the naive baseline's lowering) the kernel of basic.mlir runs its
// tiles one at a time: besides the hand-off signals of basic.mlir, DMA-out signals
// DMA-in after each tile's copy out (until the one before last iteration), and DMA-in
// waits for that signal before copying the next tile in (from the second iteration);
// without the option there is no signal between the two DMA engines.

// RUN: ktc-opt %s --arch toy -p 'convert-ktdf-to-dfir{serial=true}' | filecheck %s
// RUN: ktc-opt %s --arch toy -p convert-ktdf-to-dfir | filecheck %s --check-prefix=OVERLAP

#row = affine_map<(d0, d1) -> (d0 * 32 + d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
func.func @add(%a: index, %b: index, %c: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %tile = ktdp.get_compute_tile_id : index
  %a_view = ktdp.construct_memory_view %a, sizes: [2, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16, "DDR">
  %b_view = ktdp.construct_memory_view %b, sizes: [2, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16, "DDR">
  %c_view = ktdp.construct_memory_view %c, sizes: [2, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16, "DDR">
  %offset = affine.apply #row(%tile, %c0)
  %a_row = memref.reinterpret_cast %a_view to offset: [%offset], sizes: [1, 32], strides: [32, 1] : memref<2x32xf16, "DDR"> to memref<1x32xf16, strided<[32, 1], offset: ?>, "DDR">
  %b_row = memref.reinterpret_cast %b_view to offset: [%offset], sizes: [1, 32], strides: [32, 1] : memref<2x32xf16, "DDR"> to memref<1x32xf16, strided<[32, 1], offset: ?>, "DDR">
  %c_row = memref.reinterpret_cast %c_view to offset: [%offset], sizes: [1, 32], strides: [32, 1] : memref<2x32xf16, "DDR"> to memref<1x32xf16, strided<[32, 1], offset: ?>, "DDR">
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %p:11 = ktdf.private -> (memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %x = memref.alloc() {ktdf.address = 0 : i64} : memref<1x8xf16, "L1">
        %y = memref.alloc() {ktdf.address = 16 : i64} : memref<1x8xf16, "L1">
        %f:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
        %z = memref.alloc() {ktdf.address = 32 : i64} : memref<1x8xf16, "L1">
        %t0 = ktdf.create_token
        %t1 = ktdf.create_token
        %t2 = ktdf.create_token
        %t3 = ktdf.create_token
        %t4 = ktdf.create_token
        ktdf.private_yield %x, %y, %f#0, %f#1, %g, %z, %t0, %t1, %t2, %t3, %t4 : memref<1x8xf16, "L1">, memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#6) {
        %col = arith.muli %i, %c8 : index
        ktdf.data_transfer from %a_row[%c0, %col] size [1, 8] to %p#0[0, 0] size [1, 8] : memref<1x32xf16, strided<[32, 1], offset: ?>, "DDR">, memref<1x8xf16, "L1">
        ktdf.data_transfer from %b_row[%c0, %col] size [1, 8] to %p#1[0, 0] size [1, 8] : memref<1x32xf16, strided<[32, 1], offset: ?>, "DDR">, memref<1x8xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#6) depends_out(%p#7) {
        ktdf.data_transfer from %p#0[0, 0] size [1, 8] to %p#2 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        ktdf.data_transfer from %p#1[0, 0] size [1, 8] to %p#3 size [1, 8] : memref<1x8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%p#7) depends_out(%p#8) {
        %u = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
        %v = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
        %e = tensor.empty() : tensor<1x8xf16>
        %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%u, %v : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) {
        ^bb0(%l: f16, %r: f16, %o: f16):
          %sum = arith.addf %l, %r : f16
          linalg.yield %sum : f16
        } -> tensor<1x8xf16>
        ktdf.write_to_fifo %s, %p#4 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%p#8) depends_out(%p#9) {
        ktdf.data_transfer from %p#4 size [1, 8] to %p#5[0, 0] size [1, 8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<1x8xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%p#9) depends_out(%p#10) {
        %col = arith.muli %i, %c8 : index
        ktdf.data_transfer from %p#5[0, 0] size [1, 8] to %c_row[%c0, %col] size [1, 8] : memref<1x8xf16, "L1">, memref<1x32xf16, strided<[32, 1], offset: ?>, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}
// The DMA-in engine waits (from the second iteration) until the load unit has read
// the buffers, fills them and signals.
// The load unit waits for the DMA, loads and sends both vectors, and frees the
// buffers until the one before last iteration.
// The store unit waits for DMA-out to free its buffer, then hands it over.

// CHECK:        dfir.program "MNILU"
// CHECK:          scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[STEP:.*]] {
// CHECK:              dfir.sync_recv %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1LU">
// CHECK-NEXT:       }
// CHECK-NEXT:       %[[NOT_FIRST:.*]] = arith.cmpi sge, %[[I]], %[[STEP]] : index
// CHECK-NEXT:       scf.if %[[NOT_FIRST]] {
// CHECK-NEXT:         dfir.sync_recv %{{.*}} id [[SERIAL:[0-9]+]] : !dfir.unit<"MNISU">
// CHECK-NEXT:       }
// CHECK:            dfir.dma
// CHECK:        dfir.program "L1LU"
// CHECK:        dfir.program "MNISU"
// CHECK:            dfir.dma
// CHECK:              dfir.sync_send %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1SU">
// CHECK-NEXT:       }
// CHECK-NEXT:       %{{.*}} = arith.addi
// CHECK-NEXT:       %[[NOT_LAST:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:       scf.if %[[NOT_LAST]] {
// CHECK-NEXT:         dfir.sync_send %{{.*}} id [[SERIAL]] : !dfir.unit<"MNILU">
// CHECK-NEXT:       }

// OVERLAP:      dfir.program "MNILU"
// OVERLAP-NOT:  !dfir.unit<"MNISU">
// OVERLAP:      dfir.program "L1LU"
// OVERLAP:      dfir.program "MNISU"
// OVERLAP-NOT:  !dfir.unit<"MNILU">
// OVERLAP:      return
