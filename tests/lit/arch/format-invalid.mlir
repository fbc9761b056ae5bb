// The scale and timing attributes ktc adds to ktdf_arch are checked where they are
// written: which ops may carry them (transfer_latency on links, port_bandwidth on
// memories, issue_cycles on execution units, count and interconnect on groups,
// clock_mhz on devices, example_values anywhere) and what values they take.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.transfer_latency' only valid on links}}
  %m = memory {kind = "L1", ktdf_arch.transfer_latency = 2}
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.transfer_latency' value must be >= 0}}
  datapath {ktdf_arch.transfer_latency = -1} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  %m = memory {kind = "L1"}
  %u = exec_unit {kind = "LU"}
  // expected-error@+1 {{'ktdf_arch.port_bandwidth' only valid on memories}}
  datapath {ktdf_arch.port_bandwidth = 8} %m to %u : memory, exec_unit
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.port_bandwidth' requires 64-bit integer attribute}}
  %m = memory {kind = "DDR", ktdf_arch.port_bandwidth = 8 : i32}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.issue_cycles' only valid on execution units}}
  %m = memory {kind = "L1", ktdf_arch.issue_cycles = {plain = 1}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.issue_cycles' has no field 'divide'}}
  %u = exec_unit {kind = "PE", ktdf_arch.issue_cycles = {plain = 1, divide = 9}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.issue_cycles' requires dictionary attribute}}
  %u = exec_unit {kind = "PE", ktdf_arch.issue_cycles = 4}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.issue_cycles' field 'transcendental' requires 64-bit integer}}
  %u = exec_unit {kind = "PE", ktdf_arch.issue_cycles = {transcendental = 4.0}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.count' only valid on groups}}
  %u = exec_unit {kind = "PE", ktdf_arch.count = 2}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.count' requires 64-bit integer attribute}}
  group {ktdf_arch.count = 2 : i32} share() {
  }
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.interconnect' requires field 'stop'}}
  group {ktdf_arch.interconnect = {topology = "ring", bandwidth = 8, latency = 1}} share() {
  }
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.interconnect' field 'topology' must be "ring" or "line"}}
  group {ktdf_arch.interconnect = {topology = "mesh", stop = @s, bandwidth = 8, latency = 1}} share() {
  }
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.interconnect' field 'stop' requires a resource id (@name)}}
  group {ktdf_arch.interconnect = {topology = "ring", stop = "s", bandwidth = 8, latency = 1}} share() {
  }
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.interconnect' field 'latency' must be >= 0}}
  group {ktdf_arch.interconnect = {topology = "line", stop = @s, bandwidth = 8, latency = -1}} share() {
  }
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.interconnect' has no field 'lanes'}}
  group {ktdf_arch.interconnect = {topology = "line", stop = @s, bandwidth = 8, latency = 1, lanes = 2}} share() {
  }
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.interconnect' only valid on groups}}
  %u = exec_unit {kind = "PE", ktdf_arch.interconnect = {}}
}

// -----

ktdf_arch.device @d {
  // expected-error@+1 {{'ktdf_arch.clock_mhz' only valid on devices}}
  %m = memory {kind = "L1", ktdf_arch.clock_mhz = 1000}
}

// -----

// expected-error@+1 {{'ktdf_arch.clock_mhz' value must be > 0}}
ktdf_arch.device @d attributes {ktdf_arch.clock_mhz = 0} {
  %m = memory {kind = "L1"}
}

// -----

// expected-error@+1 {{'ktdf_arch.example_values' requires array of strings}}
ktdf_arch.device @d attributes {ktdf_arch.example_values = [1]} {
  %m = memory {kind = "L1"}
}
