// Each ktdf.create_token is a token of its own and each ktdf.tiling.reserve_size
// an unknown of its own, so CSE never merges two of them (nor two identical
// ktdf.fifo.allocate, nor two reads of a slot: each pops the FIFO), while it does
// merge identical pure ktdf ops and drops a token nobody uses.

// RUN: ktc-opt %s -p cse | filecheck %s

func.func @fresh(%i: index) -> (!ktdf.token, !ktdf.token, index, index, index, index) {
  %a = ktdf.create_token
  %b = ktdf.create_token
  %unused = ktdf.create_token
  %x = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %y = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
  %q = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
  func.return %a, %b, %x, %y, %p, %q : !ktdf.token, !ktdf.token, index, index, index, index
}

// CHECK-LABEL: func.func @fresh(
// CHECK-NEXT:    %[[A:.+]] = ktdf.create_token
// CHECK-NEXT:    %[[B:.+]] = ktdf.create_token
// CHECK-NEXT:    %[[X:.+]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[Y:.+]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[P:.+]] = ktdf.buffer_phase(%{{.+}}) {num_phases = 2 : i64} : index
// CHECK-NEXT:    return %[[A]], %[[B]], %[[X]], %[[Y]], %[[P]], %[[P]] :

func.func @fifo() {
  ktdf.pipeline {
    %s:2 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
      %s0 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      %s1 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf.private_yield %s0, %s1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    }
    ktdf.stage depends_in(none) depends_out(none) {
      %v = ktdf.read_from_fifo %s#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %w = ktdf.read_from_fifo %s#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @fifo(
// CHECK:         %[[S0:.+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    %[[S1:.+]] = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:    ktdf.private_yield %[[S0]], %[[S1]] :
// CHECK:         ktdf.read_from_fifo
// CHECK-NEXT:    ktdf.read_from_fifo
