// Every ktdf op, type and attribute prints in its custom syntax and reads back
// unchanged, from the custom form and from the generic form alike.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s > %t.custom
// RUN: ktc-opt %t.custom | diff %t.custom -
// RUN: ktc-opt %s --print-op-generic > %t.generic
// RUN: ktc-opt %t.generic | diff %t.custom -
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic

// A three-stage pipeline as the frontend builds it: load a tile into a FIFO,
// compute on it, store it back.
func.func @three_stage(%A: memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">, %C: memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c1 step %c1 {
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
          ktdf.data_transfer from %A[%i, %j] size [1, 64] to %p#0 size [1, 64] : memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %y = ktdf.read_from_fifo %p#1 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %z = arith.addf %x, %y : tensor<1x64xf16>
          ktdf.write_to_fifo %z, %p#2 : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {
          ktdf.data_transfer from %p#2 size [1, 64] to %C[%i, %j] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  }
  func.return
}

// CHECK-LABEL: func.func @three_stage(
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      {{.*}} = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:        {{.*}} = ktdf.fifo.allocate() : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:        {{.*}} = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
// CHECK-COUNT-3:     = ktdf.create_token
// CHECK-NEXT:        ktdf.private_yield {{.*}} : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out([[T0:%[^)]+]]) {
// CHECK-NEXT:        ktdf.data_transfer from %[[A:[a-zA-Z0-9_]+]][%[[I:[a-zA-Z0-9_]+]], %[[J:[a-zA-Z0-9_]+]]] size [1, 64] to [[IN0:%[^ ]+]] size [1, 64] : memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.stage depends_in([[T0]]) depends_out([[T1:%[^)]+]]) {
// CHECK-NEXT:        %[[X:.+]] = ktdf.read_from_fifo [[IN0]] : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:        %[[Y:.+]] = ktdf.read_from_fifo {{%[^ ]+}} : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:        %[[Z:.+]] = arith.addf %[[X]], %[[Y]] : tensor<1x64xf16>
// CHECK-NEXT:        ktdf.write_to_fifo %[[Z]], [[OUT:%[^ ]+]] : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
// CHECK-NEXT:      } {applicable_units = ["SFU"]}
// CHECK-NEXT:      ktdf.stage depends_in([[T1]]) depends_out({{%[^)]+}}) {
// CHECK-NEXT:        ktdf.data_transfer from [[OUT]] size [1, 64] to %{{[a-zA-Z0-9_]+}}[%[[I]], %[[J]]] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
// CHECK-NEXT:      }
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:  } {loop_type = #ktdf.loop_type<parallel_loop>}

// GENERIC-LABEL: sym_name = "three_stage"
// GENERIC:       "ktdf.pipeline"() ({
// GENERIC:         "ktdf.fifo.allocate"() : () -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>)
// GENERIC:         "ktdf.create_token"() : () -> !ktdf.token
// GENERIC:         "ktdf.private_yield"(
// GENERIC:       "ktdf.stage"({{%[^)]+}}) <{operandSegmentSizes = array<i32: 0, 1>}> ({
// GENERIC-NEXT:    "ktdf.data_transfer"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) <{operandSegmentSizes = array<i32: 1, 2, 0, 1, 0, 0>, source_map = #map{{[0-9]*}}, static_dest_sizes = array<i64: 1, 64>, static_source_sizes = array<i64: 1, 64>}>
// GENERIC:       "ktdf.stage"(%{{.+}}, %{{.+}}) <{applicable_units = ["SFU"], operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC-NEXT:    "ktdf.read_from_fifo"(%{{.+}}) : (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>) -> tensor<1x64xf16>
// GENERIC:         "ktdf.write_to_fifo"(%{{.+}}, %{{.+}}) : (tensor<1x64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>) -> ()
// GENERIC-NEXT:  }) : (!ktdf.token, !ktdf.token) -> ()
// GENERIC:       {loop_type = #ktdf.loop_type<parallel_loop>}

// After path expansion: staging buffers in L1, one stage per unit, transfers of
// all three kinds, and non-identity subscripts.
func.func @five_stage(%A: memref<?xf16, "DDR">, %C: memref<?xf16, "DDR">, %i: index, %j: index) {
  ktdf.pipeline {
    %p:9 = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %l1_in = memref.alloc() : memref<1x64xf16, "L1">
      %to_sfu = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      %from_sfu = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      %l1_out = memref.alloc() : memref<1x64xf16, "L1">
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      %t3 = ktdf.create_token
      %t4 = ktdf.create_token
      ktdf.private_yield %l1_in, %to_sfu, %from_sfu, %l1_out, %t0, %t1, %t2, %t3, %t4 : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#4) {
      ktdf.data_transfer from %A[%i * 12 + %j] size [64] to %p#0[0, 0] size [1, 64] : memref<?xf16, "DDR">, memref<1x64xf16, "L1">
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
    ktdf.stage depends_in(%p#7) depends_out(%p#8) {
      ktdf.data_transfer from %p#3[0, 0] size [1, 64] to %C[(%i - 1) * 64 + %j floordiv 2 + %j mod 4 - %i] size [64] : memref<1x64xf16, "L1">, memref<?xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @five_stage(
// CHECK-SAME:      %[[A:[^:]+]]: memref<?xf16, "DDR">, %[[C:[^:]+]]: memref<?xf16, "DDR">, %[[I:[^:]+]]: index, %[[J:[^:]+]]: index)
// CHECK:         = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.data_transfer from %[[A]][%[[I]] * 12 + %[[J]]] size [64] to [[L1IN:%[a-zA-Z0-9_#]+]][0, 0] size [1, 64] : memref<?xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK:         ktdf.data_transfer from [[L1IN]][0, 0] size [1, 64] to {{%[^ ]+}} size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    } {applicable_units = ["L1LU"]}
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK:         ktdf.data_transfer from {{%[^ ]+}} size [64] to [[L1OUT:%[a-zA-Z0-9_#]+]][0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
// CHECK-NEXT:    } {applicable_units = ["L1SU"]}
// CHECK:         ktdf.data_transfer from [[L1OUT]][0, 0] size [1, 64] to %[[C]][%[[I]] * 63 + %[[J]] floordiv 2 + %[[J]] mod 4 - 64] size [64] : memref<1x64xf16, "L1">, memref<?xf16, "DDR">
// CHECK-NEXT:    } {applicable_units = ["MNISU"]}

// GENERIC-LABEL: sym_name = "five_stage"
// GENERIC:       "ktdf.data_transfer"({{.*}}) <{dest_map = #map{{[0-9]*}}, operandSegmentSizes = array<i32: 1, 2, 0, 1, 0, 0>, source_map = #map{{[0-9]*}}, static_dest_sizes = array<i64: 1, 64>, static_source_sizes = array<i64: 64>}>

// Double buffering: a phase chosen from the loop's iteration picks one of two
// buffers, and the pipeline rotates two resource sets.
func.func @double_buffered(%src: memref<512xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %x0 = memref.alloc() : memref<64xf16, "L1">
  %x1 = memref.alloc() : memref<64xf16, "L1">
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %phase = ktdf.buffer_phase(%i, %j) {num_phases = 2 : i64} : index
      %sel = ktdf.select_memref %phase[%x0, %x1] : memref<64xf16, "L1">
      ktdf.pipeline modulo(size : 2) {
        %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
          %t0 = ktdf.create_token
          %t1 = ktdf.create_token
          ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t#0) {
          ktdf.data_transfer from %src[%i * 64] size [64] to %sel[%c0] size [64] : memref<512xf16, "DDR">, memref<64xf16, "L1">
        }
        ktdf.stage depends_in(%t#0) depends_out(%t#1) {
          %v = memref.load %sel[%c0] : memref<64xf16, "L1">
        }
      }
    }
  }
  memref.dealloc %x0 : memref<64xf16, "L1">
  memref.dealloc %x1 : memref<64xf16, "L1">
  func.return
}

// CHECK-LABEL: func.func @double_buffered(
// CHECK:         %[[X0:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    %[[X1:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    scf.for %[[I:.+]] = {{.*}} {
// CHECK-NEXT:      scf.for %[[J:.+]] = {{.*}} {
// CHECK-NEXT:        %[[PHASE:.+]] = ktdf.buffer_phase(%[[I]], %[[J]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[SEL:.+]] = ktdf.select_memref %[[PHASE]][%[[X0]], %[[X1]]] : memref<64xf16, "L1">
// CHECK-NEXT:        ktdf.pipeline modulo(size : 2) {
// CHECK:               ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[%[[I]] * 64] size [64] to %[[SEL]][%[[C0:[a-zA-Z0-9_]+]]] size [64] : memref<512xf16, "DDR">, memref<64xf16, "L1">

// GENERIC-LABEL: sym_name = "double_buffered"
// GENERIC:       "ktdf.buffer_phase"(%{{.+}}, %{{.+}}) <{num_phases = 2 : i64}> : (index, index) -> index
// GENERIC-NEXT:  "ktdf.select_memref"(%{{.+}}, %{{.+}}, %{{.+}}) : (index, memref<64xf16, "L1">, memref<64xf16, "L1">) -> memref<64xf16, "L1">
// GENERIC-NEXT:  "ktdf.pipeline"() <{modulo = 2 : i64}> ({

// A loop spread over two instances; the body sees its induction variable and the
// instance id.
func.func @parallel(%c0: index, %c4: index, %c1: index, %c16: index) {
  ktdf.parallel (%i, %j, %inst) = (%c0, %c0) to (%c4, %c16) step (%c1, %c4) distribute(num_instances = 2) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        %k = arith.addi %i, %j : index
        %l = arith.addi %k, %inst : index
      } {applicable_units = ["SFU"]}
    }
    ktdf.parallel_yield
  }
  func.return
}

// CHECK-LABEL: func.func @parallel(
// CHECK-SAME:      %[[C0:[^:]+]]: index, %[[C4:[^:]+]]: index, %[[C1:[^:]+]]: index, %[[C16:[^:]+]]: index)
// CHECK-NEXT:    ktdf.parallel (%[[I:[^,]+]], %[[J:[^,]+]], %[[INST:[^)]+]]) = (%[[C0]], %[[C0]]) to (%[[C4]], %[[C16]]) step (%[[C1]], %[[C4]]) distribute(num_instances = 2) {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          %[[K:.+]] = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:          arith.addi %[[K]], %[[INST]] : index
// CHECK-NEXT:        } {applicable_units = ["SFU"]}
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK-NEXT:    }

// GENERIC-LABEL: sym_name = "parallel"
// GENERIC:       "ktdf.parallel"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) <{num_instances = 2 : i64, operandSegmentSizes = array<i32: 2, 2, 2>}> ({
// GENERIC-NEXT:  ^{{.*}}(%{{.+}}: index, %{{.+}}: index, %{{.+}}: index):
// GENERIC:         "ktdf.parallel_yield"() : () -> ()

// Loop tiling placeholders: a tile size still to choose, the trip count of a
// (twice) tiled point loop, and the untiled index.
func.func @tiling(%c0: index, %c1: index, %c3: index, %c5: index, %c23: index) {
  %ts = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = 4 : index} : index
  %n = arith.ceildivui %c23, %ts : index
  scf.for %t = %c0 to %n step %c1 {
    %inner = ktdf.tiling.derive_size [%t : %ts], total_size = %c23 : index
    scf.for %u = %c0 to %inner step %c1 {
      %points = ktdf.tiling.derive_size [%t : %c5], [%u : %c3], total_size = %c23 : index
      scf.for %p = %c0 to %points step %c1 {
        %index = ktdf.tiling.linearize_index [%t : %c5], [%u : %c3], [%p : %c1] : index
        %k = arith.addi %index, %c1 : index
      }
    }
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  func.return
}

// CHECK-LABEL: func.func @tiling(
// CHECK-SAME:      %[[C0:[^:]+]]: index, %[[C1:[^:]+]]: index, %[[C3:[^:]+]]: index, %[[C5:[^:]+]]: index, %[[C23:[^:]+]]: index)
// CHECK-NEXT:    %[[TS:.+]] = ktdf.tiling.reserve_size {divisibility = 4 : index, min_value = 1 : index} : index
// CHECK:         scf.for %[[T:.+]] = {{.*}} {
// CHECK-NEXT:      %[[INNER:.+]] = ktdf.tiling.derive_size [%[[T]] : %[[TS]]], total_size = %[[C23]] : index
// CHECK-NEXT:      scf.for %[[U:.+]] = %[[C0]] to %[[INNER]] step %[[C1]] {
// CHECK-NEXT:        %[[POINTS:.+]] = ktdf.tiling.derive_size [%[[T]] : %[[C5]]], [%[[U]] : %[[C3]]], total_size = %[[C23]] : index
// CHECK-NEXT:        scf.for %[[P:.+]] = %[[C0]] to %[[POINTS]] step %[[C1]] {
// CHECK-NEXT:          ktdf.tiling.linearize_index [%[[T]] : %[[C5]]], [%[[U]] : %[[C3]]], [%[[P]] : %[[C1]]] : index
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}

// GENERIC-LABEL: sym_name = "tiling"
// GENERIC:       "ktdf.tiling.reserve_size"() <{divisibility = 4 : index, min_value = 1 : index}> : () -> index
// GENERIC:       "ktdf.tiling.derive_size"(%{{.+}}, %{{.+}}, %{{.+}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (index, index, index) -> index
// GENERIC:       "ktdf.tiling.derive_size"({{.*}}) <{operandSegmentSizes = array<i32: 2, 2, 1>}>
// GENERIC:       "ktdf.tiling.linearize_index"({{.*}}) <{operandSegmentSizes = array<i32: 3, 3>}>

// Dynamic sizes: a FIFO slot of run-time size, a transfer with a dynamic extent,
// a FIFO read into a buffer, and a splat that broadcasts one scalar.
func.func @dynamic(%n: index, %m: memref<?x64xf16, "L1">, %scalar: memref<1xf16, "L1">) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
      %s:2 = ktdf.fifo.allocate(%n) : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      %t = ktdf.create_token
      ktdf.private_yield %s#0, %s#1, %t : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %m[0, 0] size [%n, 64] to %p#0 size [%n] : memref<?x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
      ktdf.data_transfer from %scalar[0] size [1] to %p#1 size [64] {transfer_mode = "splat"} : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %buf = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", ?xf16> -> memref<?xf16, "SFU_REG">
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<2x32xf16>
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[N:[^:]+]]: index
// CHECK:         = ktdf.fifo.allocate(%[[N]]) : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[0, 0] size [%[[N]], 64] to {{%[^ ]+}} size [%[[N]]] : memref<?x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
// CHECK-NEXT:    ktdf.data_transfer from %{{[a-zA-Z0-9_]+}}[0] size [1] to {{%[^ ]+}} size [64] {transfer_mode = "splat"} : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         = ktdf.read_from_fifo {{%[^ ]+}} : <"L1LU" -> "SFU", ?xf16> -> memref<?xf16, "SFU_REG">
// CHECK-NEXT:    = ktdf.read_from_fifo {{%[^ ]+}} : <"L1LU" -> "SFU", 64xf16> -> tensor<2x32xf16>

// GENERIC-LABEL: sym_name = "dynamic"
// GENERIC:       "ktdf.fifo.allocate"(%{{.+}}) : (index) -> (!ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>)
// GENERIC:       "ktdf.data_transfer"({{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 1>, source_map = #map{{[0-9]*}}, static_dest_sizes = array<i64: -9223372036854775808>, static_source_sizes = array<i64: -9223372036854775808, 64>}>
// GENERIC-NEXT:  "ktdf.data_transfer"({{.*}}) <{{{.*}}}> {transfer_mode = "splat"}

// The backend's form: a body bound to hardware units, and a synchronisation
// point between units.
func.func @backend(%mnilu: index, %l1lu: index, %src: memref<64xf16, "DDR">, %buf: memref<64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  ktdf.execute_on %mnilu, %l1lu {
    ktdf.execute_on %mnilu {
      ktdf.data_transfer from %src[%c0] size [64] to %buf[%c0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    }
    ktdf.signal %mnilu, %l1lu
    ktdf.execute_on %l1lu {
      %v = memref.load %buf[%c0] : memref<64xf16, "L1">
    }
  }
  func.return
}

// CHECK-LABEL: func.func @backend(
// CHECK-SAME:      %[[MNILU:[^:]+]]: index, %[[L1LU:[^:]+]]: index
// CHECK:         ktdf.execute_on %[[MNILU]], %[[L1LU]] {
// CHECK-NEXT:      ktdf.execute_on %[[MNILU]] {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:      ktdf.execute_on %[[L1LU]] {

// GENERIC-LABEL: sym_name = "backend"
// GENERIC:       "ktdf.execute_on"(%{{.+}}, %{{.+}}) ({
// GENERIC:         "ktdf.signal"(%{{.+}}, %{{.+}}) : (index, index) -> ()

// The types stand on their own, and an empty private region needs no terminator.
func.func @types(%t: !ktdf.token, %s: !ktdf.fifo.slot<#ktdp.memory_space<ct_local> -> "SFU", 8xf32>) -> !ktdf.token {
  ktdf.pipeline {
    ktdf.private -> () {
    }
  }
  func.return %t : !ktdf.token
}

// CHECK-LABEL: func.func @types(
// CHECK-SAME:      %{{[^:]+}}: !ktdf.token, %{{[^:]+}}: !ktdf.fifo.slot<#ktdp.memory_space<ct_local> -> "SFU", 8xf32>) -> !ktdf.token {
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.private -> () {
// CHECK-NEXT:      }
// CHECK-NEXT:    }

// GENERIC-LABEL: sym_name = "types"
// GENERIC:       "ktdf.private"() ({
// GENERIC-NEXT:    "ktdf.private_yield"() : () -> ()
