// Each verifier of ktdf_arch rejects a device description it could not use, with
// a message naming what is wrong: the device and its children, resource ids, memory
// kinds and sizes, datapath endpoints, groups and their yields, switches, patterns,
// the intrinsic properties (ktdf_arch.*) and features (ktdf_arch.feature.*), and the
// custom syntax.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{empty device requires 'import_path' attribute}}
ktdf_arch.device @empty {
}

// -----

// expected-error@+1 {{non-empty device can't have 'import_path' attribute}}
"ktdf_arch.device"() <{sym_name = "both", import_path = "other.mlir"}> ({
  %m = "ktdf_arch.memory"() {kind = "L1"} : () -> !ktdf_arch.memory
}) : () -> ()

// -----

ktdf_arch.device @dup {
  %a = memory @a {kind = "DDR"}
  // expected-error@+1 {{resource with id "a" redefined}}
  %b = exec_unit @a {kind = "DMA"}
}

// -----

ktdf_arch.device @dup_in_group {
  group share() {
    %a = exec_unit @u {kind = "DMA"}
    // expected-error@+1 {{resource with id "u" redefined}}
    %b = exec_unit @u {kind = "DMA"}
  }
}

// -----

// expected-error@+1 {{expects child ops to be resources, found 'arith.constant'}}
ktdf_arch.device @foreign {
  %c = arith.constant 0 : index
}

// -----

ktdf_arch.device @foreign_in_group {
  // expected-error@+1 {{expects child ops to be resources, found 'arith.constant'}}
  group share() {
    %c = arith.constant 0 : index
  }
}

// -----

ktdf_arch.device @bad_patterns {
  // expected-error@+1 {{expects child ops to be 'pdl.pattern', found 'arith.constant'}}
  patterns {
    %c = arith.constant 0 : index
  }
}

// -----

func.func @f() {
  // expected-error@+1 {{'ktdf_arch.memory' expects parent op to be one of 'ktdf_arch.device', 'ktdf_arch.group'}}
  %m = ktdf_arch.memory {kind = "L1"}
  func.return
}

// -----

ktdf_arch.device @no_kind {
  // expected-error@+1 {{requires attribute 'kind'}}
  %m = memory {size = 64}
}

// -----

ktdf_arch.device @bad_kind {
  // expected-error@+1 {{attribute 'kind' requires valid memory space}}
  %m = memory {kind = [1, 2]}
}

// -----

ktdf_arch.device @bad_size {
  // expected-error@+1 {{minimum value is 1}}
  %m = memory {kind = "L1", size = 0}
}

// -----

ktdf_arch.device @self_link {
  %m = memory {kind = "L1"}
  // expected-error@+1 {{datapath links memory "L1" to itself}}
  datapath %m to %m : memory, memory
}

// -----

"ktdf_arch.device"() <{sym_name = "dangling"}> ({
^bb0(%x: !ktdf_arch.memory):
  %m = "ktdf_arch.memory"() {kind = "L1"} : () -> !ktdf_arch.memory
  // expected-error@+1 {{datapath source is not a resource of this device}}
  "ktdf_arch.datapath"(%x, %m) : (!ktdf_arch.memory, !ktdf_arch.memory) -> ()
}) : () -> ()

// -----

ktdf_arch.device @no_yield {
  // expected-error@+1 {{region branch point has 0 operands, but region successor needs 1 inputs}}
  %u = group share() {
    %e = exec_unit {kind = "SFU"}
  } -> exec_unit
}

// -----

ktdf_arch.device @capture {
  %m = memory {kind = "L1"}
  group share() {
    %e = exec_unit {kind = "LU"}
    // expected-error@+1 {{use of undeclared SSA value name %m}}
    datapath %m to %e : memory, exec_unit
  }
}

// -----

ktdf_arch.device @switch_shape {
  // expected-error@+1 {{'connectivity' must be a 2x2 adjacency matrix of i1}}
  %p:2 = switch [2] {connectivity = dense<true> : tensor<3x3xi1>}
}

// -----

ktdf_arch.device @switch_empty {
  // expected-error@+1 {{a switch needs at least one port}}
  switch [0]
}

// -----

// expected-error@+1 {{Redefinition of symbol "twice"}}
module {
  ktdf_arch.device @twice import("a.mlir")
  ktdf_arch.device @twice import("b.mlir")
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  // expected-error@+1 {{expects body arguments () to match the shared memories (!ktdf_arch.memory)}}
  "ktdf_arch.group"(%m) ({
    "ktdf_arch.yield"() : () -> ()
  }) : (!ktdf_arch.memory) -> ()
}

// -----

func.func @f() {
  // expected-error@+1 {{'ktdf_arch.patterns' expects parent op 'ktdf_arch.device'}}
  ktdf_arch.patterns {
  }
  func.return
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{attribute 'kind' failed to satisfy constraint: string attribute}}
  %u = exec_unit {kind = 3}
}

// -----

// Intrinsic properties and features.

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.bandwidth' only valid on links}}
  %m = memory {kind = "L1", ktdf_arch.bandwidth = 64}
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.bandwidth' requires 64-bit integer attribute}}
  datapath {ktdf_arch.bandwidth = 64 : i32} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.bandwidth' value must be > 0}}
  datapath {ktdf_arch.bandwidth = 0} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.features' requires dictionary attribute}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = [1]}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.maps_to' only valid on mappable ops}}
  %u = exec_unit {kind = "LU", ktdf_arch.maps_to = @d}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.overlaps' requires array attribute}}
  %u = exec_unit {kind = "LU", ktdf_arch.overlaps = 1}
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.transfer_granularity' requires dense 64-bit integer array attribute}}
  datapath {ktdf_arch.transfer_granularity = [64]} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.transfer_granularity' repeated granularity (1)}}
  datapath {ktdf_arch.transfer_granularity = array<i64: 1, 2, 1>} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.transfer_granularity' granularity must be > 0 (got 0)}}
  datapath {ktdf_arch.transfer_granularity = array<i64: 0>} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.latency' is not a ktdf_arch intrinsic property}}
  %u = exec_unit {kind = "LU", ktdf_arch.latency = 3}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.load' only valid on execution units}}
  %m = memory {kind = "L1", ktdf_arch.features = {ktdf_arch.feature.load}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.queue' only valid on links}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.vliw' is not a ktdf_arch feature}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.vliw}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.simd' has no field 'width'}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.simd = {width = 4}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.compute' requires unit}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.compute = {x}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.load': 'word_size' requires map}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = 64}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.store': 'word_size["A"]' must be >= 0}}
  %u = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"A" = -1>}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.load': 'access_granularity' requires map}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = [{size_in_words = 1}]}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'access_granularity["L1"][0]': 'size_in_words' requires 64-bit integer}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 1 : i32}]>}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'access_granularity["L1"][1]': 'align_in_words' must be >= 0}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 1}, {size_in_words = 2, align_in_words = -2}]>}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.simd': 'splat' requires unit}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.simd = {splat = 1}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.simd': 'zero_pad' requires unit}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.simd = {zero_pad = true}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.simd': 'lanes' requires map from type to 64-bit integer}}
  %u = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<"f16" = 64>}}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.feature.simd': 'lanes[f16]' must be > 0}}
  %u = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 0>}}}
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.feature.queue': 'ordered' requires unit}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {ordered = 1}}} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.feature.queue': 'size' requires 64-bit integer}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {size = "big"}}} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.feature.queue': 'size' must be > 0}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {size = 0}}} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.feature.queue': 'depth' requires 64-bit integer}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 1.0}}} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.feature.queue': 'depth' must be > 0}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = -1}}} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{duplicate key "L1" in #ktdf_arch.map}}
  %u = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"L1" = 1, "L1" = 2>}}}
}

// -----

// Custom syntax.

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{operand is used with type !ktdf_arch.exec_unit, but has been previously used or defined with type !ktdf_arch.memory}}
  datapath %m to %u : exec_unit, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  // expected-error@+1 {{expected 'memory', 'exec_unit' or 'port'}}
  datapath %m to %m : memory, bus
}

// -----

#NOTDICT = 3

ktdf_arch.device @d {
  // expected-error@+1 {{expected an attribute dictionary or an alias of one}}
  %m = memory #NOTDICT
}
