// Every ktdf verifier rejects the IR it guards, with a message that names the
// broken rule, located at the offending op (or type).

// RUN: ktc-opt %s --split-input-file --verify-diagnostics

func.func @pipeline_child(%c: index) {
  // expected-error@+1 {{immediate children must be 'ktdf.stage' or 'ktdf.private' ops}}
  ktdf.pipeline {
    ktdf.signal %c
  }
  func.return
}

// -----

func.func @pipeline_two_privates() {
  // expected-error@+1 {{at most one immediate 'ktdf.private' child is allowed}}
  ktdf.pipeline {
    ktdf.private -> () {
    }
    ktdf.private -> () {
    }
  }
  func.return
}

// -----

func.func @pipeline_modulo() {
  // expected-error@+1 {{minimum value is 1}}
  ktdf.pipeline modulo(size : 0) {
  }
  func.return
}

// -----

func.func @stage_outside_pipeline() {
  // expected-error@+1 {{'ktdf.stage' expects parent op 'ktdf.pipeline'}}
  ktdf.stage depends_in(none) depends_out(none) {
  }
  func.return
}

// -----

func.func @stage_token_source(%t: !ktdf.token) {
  ktdf.pipeline {
    // expected-error@+1 {{depends_in token #0 must come from 'ktdf.create_token' directly or through a 'ktdf.private' result}}
    ktdf.stage depends_in(%t) depends_out(none) {
    }
  }
  func.return
}

// -----

func.func @stage_self_dependency() {
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      %t0 = ktdf.create_token
      ktdf.private_yield %t0 : !ktdf.token
    }
    // expected-error@+1 {{a stage cannot wait for a token it releases itself}}
    ktdf.stage depends_in(%t) depends_out(%t) {
    }
  }
  func.return
}

// -----

func.func @stage_no_units() {
  ktdf.pipeline {
    // expected-error@+1 {{'applicable_units' must name at least one unit kind}}
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = []}
  }
  func.return
}

// -----

func.func @private_outside_pipeline() {
  // expected-error@+1 {{'ktdf.private' expects parent op 'ktdf.pipeline'}}
  ktdf.private -> () {
  }
  func.return
}

// -----

func.func @private_yield_count() {
  ktdf.pipeline {
    // expected-error@+1 {{'ktdf.private_yield' yields 1 values but 'ktdf.private' has 2 results}}
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %t0 = ktdf.create_token
      ktdf.private_yield %t0 : !ktdf.token
    }
  }
  func.return
}

// -----

func.func @private_yield_type() {
  ktdf.pipeline {
    // expected-error@+1 {{'ktdf.private_yield' operand #0 has type !ktdf.token but result #0 has type index}}
    %t = ktdf.private -> (index) {
      %t0 = ktdf.create_token
      ktdf.private_yield %t0 : !ktdf.token
    }
  }
  func.return
}

// -----

// expected-error@+1 {{fifo slot must hold at least one element, got 0}}
func.func @slot_empty(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 0xf16>) {
  func.return
}

// -----

// expected-error@+1 {{fifo slot expects one element count, as in '64xf16'}}
func.func @slot_shape(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 2x32xf16>) {
  func.return
}

// -----

func.func @allocate_dynamic(%n: index) {
  ktdf.pipeline {
    %s = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>) {
      // expected-error@+1 {{expects 1 dynamic size operands, one per dynamic slot, but got 0}}
      %s0 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
      ktdf.private_yield %s0 : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
    }
  }
  func.return
}

// -----

func.func @allocate_ends() {
  ktdf.pipeline {
    %s:2 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>) {
      // expected-error@+1 {{all slots of one FIFO must have the same source and destination}}
      %s0, %s1 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      ktdf.private_yield %s0, %s1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    }
  }
  func.return
}

// -----

func.func @read_element_type(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{result element type f32 does not match the fifo slot element type f16}}
  %v = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf32>
  func.return
}

// -----

func.func @read_count(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{result has 128 elements but the fifo slot holds 64}}
  %v = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<2x64xf16>
  func.return
}

// -----

func.func @read_dynamic(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>) {
  // expected-error@+1 {{result shape must be dynamic exactly when the fifo slot size is dynamic}}
  %v = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", ?xf16> -> tensor<64xf16>
  func.return
}

// -----

func.func @write_count(%s: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, %x: tensor<32xf16>) {
  // expected-error@+1 {{data has 32 elements but the fifo slot holds 64}}
  ktdf.write_to_fifo %x, %s : tensor<32xf16>, <"SFU" -> "L1SU", 64xf16>
  func.return
}

// -----

func.func @transfer_map_rank(%a: memref<4x64xf16, "L1">, %b: memref<4x64xf16, "L1">, %i: index) {
  // expected-error@+1 {{source memref has rank 2 but source_map has 3 results}}
  ktdf.data_transfer from %a[%i, 0, 0] size [1, 64] to %b[0, 0] size [1, 64] : memref<4x64xf16, "L1">, memref<4x64xf16, "L1">
  func.return
}

// -----

func.func @transfer_map_symbols(%a: memref<4x64xf16, "L1">, %b: memref<4x64xf16, "L1">, %i: index) {
  // expected-error@+1 {{source_map must have 0 symbols (dims-only); got 1}}
  "ktdf.data_transfer"(%a, %i, %i, %b) <{source_map = affine_map<(d0)[s0] -> (d0, s0)>, dest_map = affine_map<() -> (0, 0)>, static_source_sizes = array<i64: 1, 64>, static_dest_sizes = array<i64: 1, 64>, operandSegmentSizes = array<i32: 1, 2, 0, 1, 0, 0>}> : (memref<4x64xf16, "L1">, index, index, memref<4x64xf16, "L1">) -> ()
  func.return
}

// -----

func.func @transfer_fifo_map(%s: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, %b: memref<64xf16, "L1">) {
  // expected-error@+1 {{source_map must be absent for fifo source}}
  ktdf.data_transfer from %s[0] size [64] to %b[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
  func.return
}

// -----

func.func @transfer_fifo_indices(%s: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, %b: memref<64xf16, "L1">, %i: index) {
  // expected-error@+1 {{fifo source takes no indices}}
  "ktdf.data_transfer"(%s, %i, %b) <{dest_map = affine_map<() -> (0)>, static_source_sizes = array<i64: 64>, static_dest_sizes = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0>}> : (!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, index, memref<64xf16, "L1">) -> ()
  func.return
}

// -----

func.func @transfer_memref_without_map(%a: memref<64xf16, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{source_map is required for a memref source}}
  ktdf.data_transfer from %a size [64] to %s size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  func.return
}

// -----

func.func @transfer_map_dims(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">, %i: index) {
  // expected-error@+1 {{source_map has 2 dims but 1 source indices are given}}
  "ktdf.data_transfer"(%a, %i, %b) <{source_map = affine_map<(d0, d1) -> (d0 + d1)>, dest_map = affine_map<() -> (0)>, static_source_sizes = array<i64: 64>, static_dest_sizes = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0>}> : (memref<64xf16, "L1">, index, memref<64xf16, "L1">) -> ()
  func.return
}

// -----

func.func @transfer_source_sizes(%a: memref<4x64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // expected-error@+1 {{source size count (1) must match memref rank (2)}}
  ktdf.data_transfer from %a[0, 0] size [64] to %b[0] size [64] : memref<4x64xf16, "L1">, memref<64xf16, "L1">
  func.return
}

// -----

func.func @transfer_dest_sizes(%a: memref<64xf16, "L1">, %b: memref<4x64xf16, "L1">) {
  // expected-error@+1 {{dest size count (3) must match memref rank (2)}}
  ktdf.data_transfer from %a[0] size [64] to %b[0, 0] size [1, 1, 64] : memref<64xf16, "L1">, memref<4x64xf16, "L1">
  func.return
}

// -----

func.func @transfer_dynamic_sizes(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">, %n: index) {
  // expected-error@+1 {{The number of dynamic positions passed as values (1) does not match the number of dynamic position markers (0) in the source sizes}}
  "ktdf.data_transfer"(%a, %n, %b) <{source_map = affine_map<() -> (0)>, dest_map = affine_map<() -> (0)>, static_source_sizes = array<i64: 64>, static_dest_sizes = array<i64: 64>, operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0>}> : (memref<64xf16, "L1">, index, memref<64xf16, "L1">) -> ()
  func.return
}

// -----

func.func @transfer_negative_size(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  // expected-error@+1 {{dest sizes must not be negative}}
  ktdf.data_transfer from %a[0] size [64] to %b[0] size [-64] : memref<64xf16, "L1">, memref<64xf16, "L1">
  func.return
}

// -----

func.func @transfer_fifo_size(%a: memref<64xf16, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{fifo dest size covers 32 elements but the slot holds 64}}
  ktdf.data_transfer from %a[0] size [32] to %s size [32] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  func.return
}

// -----

func.func @transfer_fifo_to_fifo(%s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %t: !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>) {
  // expected-error@+1 {{expects a memref on at least one side; fifo to fifo is not a transfer}}
  ktdf.data_transfer from %s size [64] to %t size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  func.return
}

// -----

func.func @transfer_element_type(%a: memref<64xf32, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{source element type f32 does not match dest element type f16}}
  ktdf.data_transfer from %a[0] size [64] to %s size [64] : memref<64xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  func.return
}

// -----

func.func @transfer_count(%a: memref<4x64xf16, "DDR">, %b: memref<64xf16, "L1">) {
  // expected-error@+1 {{source size covers 128 elements but dest size covers 64}}
  ktdf.data_transfer from %a[0, 0] size [2, 64] to %b[0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
  func.return
}

// -----

func.func @transfer_splat_source(%a: memref<64xf16, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{a splat transfer reads one source element, not 2}}
  ktdf.data_transfer from %a[0] size [2] to %s size [64] {transfer_mode = "splat"} : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  func.return
}

// -----

func.func @transfer_mode(%a: memref<64xf16, "L1">, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error@+1 {{'transfer_mode' must be "splat", got "gather"}}
  ktdf.data_transfer from %a[0] size [64] to %s size [64] {transfer_mode = "gather"} : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  func.return
}

// -----

func.func @parallel_bounds(%c0: index, %c4: index, %c1: index) {
  // expected-error@+1 {{expects the same number (at least one) of lower bounds, upper bounds and steps}}
  "ktdf.parallel"(%c0, %c0, %c4, %c1) <{num_instances = 2 : i64, operandSegmentSizes = array<i32: 2, 1, 1>}> ({
  ^bb0(%i: index, %inst: index):
    "ktdf.parallel_yield"() : () -> ()
  }) : (index, index, index, index) -> ()
  func.return
}

// -----

func.func @parallel_instances(%c0: index, %c4: index, %c1: index) {
  // expected-error@+1 {{minimum value is 1}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 0) {
    ktdf.parallel_yield
  }
  func.return
}

// -----

func.func @parallel_block_args(%c0: index, %c4: index, %c1: index) {
  // expected-error@+1 {{expects 2 index block arguments: 1 induction variables and the instance id}}
  ktdf.parallel (%i) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    ktdf.parallel_yield
  }
  func.return
}

// -----

func.func @parallel_yield_outside() {
  // expected-error@+1 {{'ktdf.parallel_yield' expects parent op 'ktdf.parallel'}}
  ktdf.parallel_yield
}

// -----

func.func @buffer_phase_phases(%i: index) {
  // expected-error@+1 {{minimum value is 2}}
  %p = ktdf.buffer_phase(%i) {num_phases = 1 : i64} : index
  func.return
}

// -----

func.func @buffer_phase_ivs() {
  // expected-error@+1 {{requires at least one induction variable operand}}
  %p = ktdf.buffer_phase() {num_phases = 2 : i64} : index
  func.return
}

// -----

func.func @select_one_candidate(%p: index, %a: memref<64xf16, "L1">) {
  // expected-error@+1 {{requires at least 2 candidate memrefs}}
  %s = ktdf.select_memref %p[%a] : memref<64xf16, "L1">
  func.return
}

// -----

func.func @select_types(%p: index, %a: memref<64xf16, "L1">, %b: memref<32xf16, "L1">) {
  // expected-error@+1 {{candidate #1 expects different type: memref<32xf16, "L1"> vs result type memref<64xf16, "L1">}}
  %s = "ktdf.select_memref"(%p, %a, %b) : (index, memref<64xf16, "L1">, memref<32xf16, "L1">) -> memref<64xf16, "L1">
  func.return
}

// -----

func.func @select_phase_count(%i: index, %a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">, %c: memref<64xf16, "L1">) {
  %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
  // expected-error@+1 {{phase op num_phases (2) must equal candidate count (3)}}
  %s = ktdf.select_memref %p[%a, %b, %c] : memref<64xf16, "L1">
  func.return
}

// -----

func.func @reserve_size_min() {
  // expected-error@+1 {{'min_value' must be at least 1}}
  %t = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 0 : index} : index
  func.return
}

// -----

func.func @derive_size_pairs(%n: index) {
  // expected-error@+1 {{must have at least one [iv : tile_size] pair}}
  %d = ktdf.tiling.derive_size total_size = %n : index
  func.return
}

// -----

func.func @derive_size_unpaired(%i: index, %t: index, %n: index) {
  // expected-error@+1 {{every [iv : tile_size] pair needs both values}}
  %d = "ktdf.tiling.derive_size"(%i, %t, %t, %n) <{operandSegmentSizes = array<i32: 1, 2, 1>}> : (index, index, index, index) -> index
  func.return
}

// -----

func.func @linearize_pairs() {
  // expected-error@+1 {{must have at least one [iv : stride] pair}}
  %l = ktdf.tiling.linearize_index : index
  func.return
}

// -----

func.func @execute_on_units() {
  // expected-error@+1 {{requires at least one unit}}
  ktdf.execute_on {
  }
  func.return
}

// -----

func.func @signal_units() {
  // expected-error@+1 {{requires at least one unit}}
  "ktdf.signal"() : () -> ()
  func.return
}

// -----

func.func @loop_type(%c0: index, %c1: index) {
  scf.for %i = %c0 to %c1 step %c1 {
  // expected-error@+1 {{Expected `parallel_loop`, or `reduction_loop`.}}
  } {loop_type = #ktdf.loop_type<vector_loop>}
  func.return
}
