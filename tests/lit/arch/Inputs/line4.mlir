// A chip unlike Spyre, for the device-model tests: 4 cores on a line (no wrap),
// no sub-cores, a 256 KiB scratchpad ("SPM") that one two-way DMA engine fills from
// HBM, and a 32-lane vector unit ("VPU") reading and writing the scratchpad
// directly through queues; it can splat a scalar over its lanes, and has no
// sigmoid, gelu or silu instruction. Figures are made up.

#QUEUE = {
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 3,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 64, ordered}}
}

ktdf_arch.device @line4 attributes {
  ktdf_arch.clock_mhz = 800,
  mem_space_mapping = #ktdf_arch.map<
    #ktdp.memory_space<global> = "HBM",
    #ktdp.memory_space<ct_local> = "SPM"
  >
} {
  %hbm = memory @hbm {kind = "HBM", size = 8589934592, ktdf_arch.port_bandwidth = 256}

  group @tile {
    kind = "tile",
    ktdf_arch.count = 4,
    ktdf_arch.interconnect = {topology = "line", stop = @noc, bandwidth = 32, latency = 3}
  } share(%hbm) {
    %spm = memory @spm {kind = "SPM", size = 262144}
    %dma = exec_unit @dma {
      kind = "DMA",
      ktdf_arch.features = {
        ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>},
        ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}
      }
    }
    datapath {ktdf_arch.bandwidth = 64, ktdf_arch.transfer_latency = 200, ktdf_arch.transfer_granularity = array<i64: 64>} %hbm to %dma : memory, exec_unit
    datapath {ktdf_arch.bandwidth = 64, ktdf_arch.transfer_latency = 2} %dma to %spm : exec_unit, memory
    datapath {ktdf_arch.bandwidth = 64, ktdf_arch.transfer_latency = 2} %spm to %dma : memory, exec_unit
    datapath {ktdf_arch.bandwidth = 64, ktdf_arch.transfer_latency = 200, ktdf_arch.transfer_granularity = array<i64: 64>} %dma to %hbm : exec_unit, memory

    %noc = exec_unit @noc {kind = "NOC"}
    datapath {ktdf_arch.bandwidth = 32, ktdf_arch.transfer_latency = 1} %spm to %noc : memory, exec_unit
    datapath {ktdf_arch.bandwidth = 32, ktdf_arch.transfer_latency = 1} %noc to %spm : exec_unit, memory

    %vpu = exec_unit @vpu {
      kind = "VPU",
      ktdf_arch.features = {
        ktdf_arch.feature.compute,
        ktdf_arch.feature.simd = {splat, lanes = #ktdf_arch.map<f32 = 32, f16 = 32>}
      },
      ktdf_arch.issue_cycles = {plain = 1, transcendental = 8, reduction_step = 2},
      ktdf_arch.instructions = [
        "add", "sub", "mul", "div", "max", "min", "neg", "abs", "fma",
        "exp", "sqrt", "rsqrt", "reciprocal", "tanh"
      ]
    }
    datapath #QUEUE %spm to %vpu : memory, exec_unit
    datapath #QUEUE %vpu to %spm : exec_unit, memory
  }

  // At pre_mapping the VPU takes exp, sqrt, rsqrt, reciprocal and realdiv as
  // instructions of its own; it has no sigmoid or silu instruction, so those become
  // 1 / (1 + exp(-x)) and x / (1 + exp(-x)) in its f16 and f32 arithmetic. It has no
  // pattern for the other intrinsics, which it refuses.
  patterns ["pre_mapping"] {
    pdl.pattern @exp : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "exp"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @sqrt : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.sqrt"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "sqrt"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @rsqrt : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.rsqrt"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "rsqrt"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @reciprocal : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.reciprocal"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "reciprocal"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @realdiv : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %root = pdl.operation "spyreop.realdiv"(%a, %b : !pdl.value, !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "div"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @sigmoid_f16 : benefit(1) {
      %f16 = pdl.type : f16
      %x = pdl.operand : %f16
      %root = pdl.operation "spyreop.sigmoid"(%x : !pdl.value) -> (%f16 : !pdl.type)
      pdl.rewrite %root {
        %one_attr = pdl.attribute = 1.000000e+00 : f16
        %one_op = pdl.operation "arith.constant" {"value" = %one_attr} -> (%f16 : !pdl.type)
        %one = pdl.result 0 of %one_op
        %negated_op = pdl.operation "arith.negf"(%x : !pdl.value) -> (%f16 : !pdl.type)
        %negated = pdl.result 0 of %negated_op
        %exp_op = pdl.operation "math.exp"(%negated : !pdl.value) -> (%f16 : !pdl.type)
        %exp = pdl.result 0 of %exp_op
        %sum_op = pdl.operation "arith.addf"(%one, %exp : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        %sum = pdl.result 0 of %sum_op
        %quotient = pdl.operation "arith.divf"(%one, %sum : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        pdl.replace %root with %quotient
      }
    }
    pdl.pattern @sigmoid_f32 : benefit(1) {
      %f32 = pdl.type : f32
      %x = pdl.operand : %f32
      %root = pdl.operation "spyreop.sigmoid"(%x : !pdl.value) -> (%f32 : !pdl.type)
      pdl.rewrite %root {
        %one_attr = pdl.attribute = 1.000000e+00 : f32
        %one_op = pdl.operation "arith.constant" {"value" = %one_attr} -> (%f32 : !pdl.type)
        %one = pdl.result 0 of %one_op
        %negated_op = pdl.operation "arith.negf"(%x : !pdl.value) -> (%f32 : !pdl.type)
        %negated = pdl.result 0 of %negated_op
        %exp_op = pdl.operation "math.exp"(%negated : !pdl.value) -> (%f32 : !pdl.type)
        %exp = pdl.result 0 of %exp_op
        %sum_op = pdl.operation "arith.addf"(%one, %exp : !pdl.value, !pdl.value) -> (%f32 : !pdl.type)
        %sum = pdl.result 0 of %sum_op
        %quotient = pdl.operation "arith.divf"(%one, %sum : !pdl.value, !pdl.value) -> (%f32 : !pdl.type)
        pdl.replace %root with %quotient
      }
    }
    pdl.pattern @silu_f16 : benefit(1) {
      %f16 = pdl.type : f16
      %x = pdl.operand : %f16
      %root = pdl.operation "spyreop.silu"(%x : !pdl.value) -> (%f16 : !pdl.type)
      pdl.rewrite %root {
        %one_attr = pdl.attribute = 1.000000e+00 : f16
        %one_op = pdl.operation "arith.constant" {"value" = %one_attr} -> (%f16 : !pdl.type)
        %one = pdl.result 0 of %one_op
        %negated_op = pdl.operation "arith.negf"(%x : !pdl.value) -> (%f16 : !pdl.type)
        %negated = pdl.result 0 of %negated_op
        %exp_op = pdl.operation "math.exp"(%negated : !pdl.value) -> (%f16 : !pdl.type)
        %exp = pdl.result 0 of %exp_op
        %sum_op = pdl.operation "arith.addf"(%one, %exp : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        %sum = pdl.result 0 of %sum_op
        %quotient = pdl.operation "arith.divf"(%x, %sum : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        pdl.replace %root with %quotient
      }
    }
    pdl.pattern @silu_f32 : benefit(1) {
      %f32 = pdl.type : f32
      %x = pdl.operand : %f32
      %root = pdl.operation "spyreop.silu"(%x : !pdl.value) -> (%f32 : !pdl.type)
      pdl.rewrite %root {
        %one_attr = pdl.attribute = 1.000000e+00 : f32
        %one_op = pdl.operation "arith.constant" {"value" = %one_attr} -> (%f32 : !pdl.type)
        %one = pdl.result 0 of %one_op
        %negated_op = pdl.operation "arith.negf"(%x : !pdl.value) -> (%f32 : !pdl.type)
        %negated = pdl.result 0 of %negated_op
        %exp_op = pdl.operation "math.exp"(%negated : !pdl.value) -> (%f32 : !pdl.type)
        %exp = pdl.result 0 of %exp_op
        %sum_op = pdl.operation "arith.addf"(%one, %exp : !pdl.value, !pdl.value) -> (%f32 : !pdl.type)
        %sum = pdl.result 0 of %sum_op
        %quotient = pdl.operation "arith.divf"(%x, %sum : !pdl.value, !pdl.value) -> (%f32 : !pdl.type)
        pdl.replace %root with %quotient
      }
    }
  }
  patterns ["pre_scheduling"] {
  }
  patterns ["post_scheduling"] {
  }
  patterns ["post_lowering"] {
  }
}
