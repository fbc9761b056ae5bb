// The copies go before the outermost loop of the scope, and the phase counts the
// iterations of the whole scope: here the row and column loops, so consecutive
// runs of the pipeline alternate across rows too. In @tile_size_per_row the tile
// buffer's size is a tile size chosen inside the row loop: the scope stops there,
// the copies are made in each row before the tile loop and the phase counts tiles.

// RUN: ktc-opt %s --arch toy -p double-buffering | filecheck %s

// CHECK-LABEL: func.func @two_loops(
// CHECK:         %[[B0:.+]] = memref.alloc() : memref<8xf16, "L1">
// CHECK-NEXT:    %[[B1:.+]] = memref.alloc() : memref<8xf16, "L1">
// CHECK-NEXT:    scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        %[[PHASE:.+]] = ktdf.buffer_phase(%[[I]], %[[J]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %{{.+}} = ktdf.select_memref %[[PHASE]][%[[B0]], %[[B1]]] : memref<8xf16, "L1">
// CHECK-NEXT:        ktdf.pipeline modulo(size : 2) {
func.func @two_loops(%A: memref<4x64xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      ktdf.pipeline {
        %p:3 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
          %b = memref.alloc() : memref<8xf16, "L1">
          %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
          %t = ktdf.create_token
          ktdf.private_yield %b, %f, %t : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          %col = arith.muli %j, %c8 : index
          ktdf.data_transfer from %A[%i, %col] size [1, 8] to %p#0[0] size [8] : memref<4x64xf16, "DDR">, memref<8xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#2) depends_out(none) {
          ktdf.data_transfer from %p#0[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  func.return
}

// CHECK-LABEL: func.func @tile_size_per_row(
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[TS:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:      %[[TILES:.+]] = arith.ceildivui %{{.+}}, %[[TS]] : index
// CHECK-NEXT:      %[[B0:.+]] = memref.alloc(%[[TS]]) : memref<?xf16, "L1">
// CHECK-NEXT:      %[[B1:.+]] = memref.alloc(%[[TS]]) : memref<?xf16, "L1">
// CHECK-NEXT:      scf.for %[[T:.+]] = %{{.+}} to %[[TILES]] step %{{.+}} {
// CHECK-NEXT:        %{{.+}} = arith.muli %[[T]], %[[TS]] : index
// CHECK-NEXT:        %[[PHASE:.+]] = ktdf.buffer_phase(%[[T]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %{{.+}} = ktdf.select_memref %[[PHASE]][%[[B0]], %[[B1]]] : memref<?xf16, "L1">
// CHECK-NEXT:        ktdf.pipeline modulo(size : 2) {
func.func @tile_size_per_row(%A: memref<4x64xf16, "DDR">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %row = %c0 to %n step %c1 {
    %ts = ktdf.tiling.reserve_size {divisibility = 8 : index, min_value = 8 : index} : index
    %tiles = arith.ceildivui %c64, %ts : index
    scf.for %t = %c0 to %tiles step %c1 {
      %col = arith.muli %t, %ts : index
      ktdf.pipeline {
        %p:3 = ktdf.private -> (memref<?xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token) {
          %b = memref.alloc(%ts) : memref<?xf16, "L1">
          %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
          %tk = ktdf.create_token
          ktdf.private_yield %b, %f, %tk : memref<?xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %A[%row, %col] size [1, %ts] to %p#0[0] size [%ts] : memref<4x64xf16, "DDR">, memref<?xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#2) depends_out(none) {
          ktdf.data_transfer from %p#0[0] size [8] to %p#1 size [8] : memref<?xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  func.return
}
