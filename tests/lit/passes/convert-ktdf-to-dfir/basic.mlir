// A two-tile kernel on the toy chip: each core streams its row of a and b into the
// scratchpad by DMA, the load unit feeds the SIMD engine through FIFOs, the store unit
// writes the sums back and DMA moves them out, four vectors per row. The argument
// addresses become host symbols (in bytes), the tile id a per-core uniform map, each
// stage code in its engine's program, each FIFO a send/receive pair, and each
// scratchpad hand-off between engines a sync pair forward plus one backward, guarded
// so that the writer waits from the second iteration and the reader signals until
// the one before last.

// RUN: ktc-opt %s --arch toy -p convert-ktdf-to-dfir | filecheck %s

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

// CHECK:      func.func @add(%a: index, %b: index, %c: index) attributes {grid = [2]} {
// CHECK:        %[[A2:.*]] = arith.muli %a, %[[TWO:.*]] : index
// CHECK:        dfir.define_symbol 1 = %[[A2]] : index
// CHECK:        dfir.define_symbol 3 = %{{.*}} : index
// CHECK-NEXT:   dfir.dataflow {
// CHECK-DAG:      %[[DMA0:.*]] = dfir.unit core 0 : !dfir.unit<"MNILU">
// CHECK-DAG:      %[[DMA1:.*]] = dfir.unit core 1 : !dfir.unit<"MNILU">
// CHECK-DAG:      %[[LU0:.*]] = dfir.unit core 0 subcore 0 : !dfir.unit<"L1LU">
// CHECK-DAG:      %[[DDR:.*]] = dfir.unit : !dfir.unit<"DDR">
// CHECK-DAG:      %[[SYM_A:.*]] = dfir.symbol 1 : index
// CHECK-DAG:      %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:      %[[ROW:.*]] = dfir.uniform_map [%[[DMA0]] -> %{{.*}}, %[[DMA1]] -> %[[C32]]] : !dfir.uniform<"MNILU", index>

// The DMA-in engine waits (from the second iteration) until the load unit has read
// the buffers, fills them and signals.
// CHECK:        dfir.program "MNILU" on (%[[DMA0]], %[[DMA1]]) {
// CHECK-DAG:      %[[LU:.*]] = dfir.query %{{.*}} : !dfir.uniform<"MNILU", !dfir.unit<"L1LU">>
// CHECK-DAG:      %[[MYROW:.*]] = dfir.query %[[ROW]] : !dfir.uniform<"MNILU", index>
// CHECK:          scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:       %[[NOT_FIRST:.*]] = arith.cmpi sge, %[[I]], %{{.*}} : index
// CHECK-NEXT:       scf.if %[[NOT_FIRST]] {
// CHECK-NEXT:         dfir.sync_recv %[[LU]] id [[BACK:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK-NEXT:       }
// CHECK-NEXT:       %[[ROW_BYTES:.*]] = arith.muli %[[MYROW]], %{{.*}} : index
// CHECK-NEXT:       %[[BASE:.*]] = arith.addi %[[SYM_A]], %[[ROW_BYTES]] : index
// CHECK:            %[[AT:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK-NEXT:       %[[SRC:.*]] = dfir.view %[[DDR]][%[[AT]]] : !dfir.unit<"DDR"> -> memref<8xf16>
// CHECK-NEXT:       %[[DST:.*]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<8xf16>
// CHECK-NEXT:       dfir.dma %[[SRC]] to %[[DST]] : memref<8xf16>, memref<8xf16>
// CHECK:            dfir.dma
// CHECK-NEXT:       dfir.sync_send %[[LU]] id [[FWD:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK-NEXT:     }

// The load unit waits for the DMA, loads and sends both vectors, and frees the
// buffers until the one before last iteration.
// CHECK:        dfir.program "L1LU"
// CHECK:          scf.for %[[J:.*]] = %{{.*}} to %[[FOUR:.*]] step %[[ONE:.*]] {
// CHECK-NEXT:       dfir.sync_recv %{{.*}} id [[FWD]] : !dfir.unit<"MNILU">
// CHECK-NEXT:       %[[X:.*]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<8xf16>
// CHECK-NEXT:       %[[XV:.*]] = dfir.load %[[X]][%{{.*}}] : memref<8xf16>, vector<8xf16>
// CHECK-NEXT:       dfir.send %[[XV]] to %{{.*}} id [[X_FIFO:[0-9]+]] : vector<8xf16>, !dfir.unit<"SFU">
// CHECK:            dfir.send %{{.*}} to %{{.*}} id [[Y_FIFO:[0-9]+]] : vector<8xf16>, !dfir.unit<"SFU">
// CHECK-NEXT:       %[[NEXT:.*]] = arith.addi %[[J]], %[[ONE]] : index
// CHECK-NEXT:       %[[NOT_LAST:.*]] = arith.cmpi slt, %[[NEXT]], %[[FOUR]] : index
// CHECK-NEXT:       scf.if %[[NOT_LAST]] {
// CHECK-NEXT:         dfir.sync_send %{{.*}} id [[BACK]] : !dfir.unit<"MNILU">

// CHECK:        dfir.program "SFU"
// CHECK:            %[[U:.*]] = dfir.receive from %{{.*}} id [[X_FIFO]] : !dfir.unit<"L1LU"> -> vector<8xf16>
// CHECK-NEXT:       %[[V:.*]] = dfir.receive from %{{.*}} id [[Y_FIFO]] : !dfir.unit<"L1LU"> -> vector<8xf16>
// CHECK-NEXT:       %[[S:.*]] = dfir.compute <add> %[[U]], %[[V]] : vector<8xf16>
// CHECK-NEXT:       dfir.send %[[S]] to %{{.*}} id [[S_FIFO:[0-9]+]] : vector<8xf16>, !dfir.unit<"L1SU">

// The store unit waits for DMA-out to free its buffer, then hands it over.
// CHECK:        dfir.program "L1SU"
// CHECK:            scf.if %{{.*}} {
// CHECK-NEXT:         dfir.sync_recv %{{.*}} id [[OUT_BACK:[0-9]+]] : !dfir.unit<"MNISU">
// CHECK:            dfir.receive from %{{.*}} id [[S_FIFO]]
// CHECK-NEXT:       %[[Z:.*]] = dfir.view %{{.*}}[%[[C32]]] : !dfir.unit<"L1"> -> memref<8xf16>
// CHECK-NEXT:       dfir.store %{{.*}}, %[[Z]][%{{.*}}] : memref<8xf16>, vector<8xf16>
// CHECK-NEXT:       dfir.sync_send %{{.*}} id [[OUT_FWD:[0-9]+]] : !dfir.unit<"MNISU">

// CHECK:        dfir.program "MNISU"
// CHECK:            dfir.sync_recv %{{.*}} id [[OUT_FWD]] : !dfir.unit<"L1SU">
// CHECK:            dfir.dma %{{.*}} to %{{.*}} : memref<8xf16>, memref<8xf16>
// CHECK:              dfir.sync_send %{{.*}} id [[OUT_BACK]] : !dfir.unit<"L1SU">
// CHECK:        return
