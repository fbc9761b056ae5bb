// IBM Spyre: 32 cores on a bidirectional ring, each with a 2 MB scratchpad (LX,
// named "L1" here as in IBM's scheduler) shared by two sub-cores, each sub-core a
// 64-lane SIMD engine (the SFU) fed by a load unit and drained by a store unit
// through FIFOs of depth 16, and a matrix unit (the PT array: 8 rows x 64 fp16 lanes
// of multiply-accumulate per cycle, accumulating in fp32) fed by the same load unit
// and drained by the same store unit through FIFOs of its own. DMA engines move
// 128-byte sticks between device memory (LPDDR5, named "DDR") and the scratchpad.
//
// Public figures: 32 cores, 2 sub-cores per core, 2 MB scratchpad, ring at 128 B
// per cycle per direction, 128-byte sticks, 64 fp16 lanes, up to 128 GB of device
// memory, an 8-row PT array per sub-core; 2,048 flop per cycle per core is the
// figure of IBM's interpreter's preset for the first generation. Every other figure
// is an example value, listed in the op's ktdf_arch.example_values: the clock
// (1 GHz), device memory bandwidth (128 B per cycle, i.e. 128 GB/s at 1 GHz),
// latencies, issue costs, FIFO beat widths and depths, the register file size and
// the matrix unit's fill, drain and accumulator memory size.
//
// Units are cycles and bytes. See docs/arch-format.md for the format.

// Device memory: 128 GiB, 128 B/cycle shared by all cores.
#DDR = {
  kind = "DDR",
  size = 137438953472,
  ktdf_arch.port_bandwidth = 128,
  ktdf_arch.example_values = ["port_bandwidth"]
}

// Scratchpad: 2 MiB per core, serving 512 B per cycle through all its ports together:
// a stick a cycle to each of the four load and store units, so DMA copies into and
// out of it contend with them.
#L1 = {
  kind = "L1",
  size = 2097152,
  ktdf_arch.port_bandwidth = 512,
  ktdf_arch.example_values = ["port_bandwidth"]
}

// DMA load (device memory -> scratchpad) and store (scratchpad -> device memory)
// engines, addressing both memories in 128-byte words.
#DMA_ACCESS = {
  word_size = #ktdf_arch.map<"DDR" = 128, "L1" = 128>,
  access_granularity = #ktdf_arch.map<
    "DDR" = [{size_in_words = 1, align_in_words = 1}],
    "L1" = [{size_in_words = 1, align_in_words = 1}]
  >
}
// Each has at most 4 copies in flight: a fifth waits for the first to complete. An
// indirect copy (its address computed from indices the engine read) costs 8 cycles
// to describe per contiguous run.
#MNILU = {
  kind = "MNILU",
  ktdf_arch.features = {ktdf_arch.feature.load = #DMA_ACCESS},
  ktdf_arch.outstanding = 4,
  ktdf_arch.descriptor_cycles = 8,
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["outstanding", "descriptor_cycles", "scalar_cycles"]
}
#MNISU = {
  kind = "MNISU",
  ktdf_arch.features = {ktdf_arch.feature.store = #DMA_ACCESS},
  ktdf_arch.outstanding = 4,
  ktdf_arch.descriptor_cycles = 8,
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["outstanding", "descriptor_cycles", "scalar_cycles"]
}

// Device memory side of a DMA engine: 128-byte transfers, long latency.
#DMA_DDR_LINK = {
  ktdf_arch.transfer_granularity = array<i64: 128>,
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 100,
  ktdf_arch.example_values = ["bandwidth", "transfer_latency"]
}
// Scratchpad side of a DMA engine.
#DMA_L1_LINK = {
  ktdf_arch.transfer_granularity = array<i64: 128>,
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 4,
  ktdf_arch.example_values = ["bandwidth", "transfer_latency"]
}

// Ring stop: moves scratchpad data to and from the neighbouring cores' stops.
#RING = {
  kind = "RING",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"L1" = 128>},
    ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"L1" = 128>}
  },
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["scalar_cycles"]
}
#RING_LINK = {
  ktdf_arch.transfer_granularity = array<i64: 128>,
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 4,
  ktdf_arch.example_values = ["bandwidth", "transfer_latency"]
}

// The SIMD engine of a sub-core: 64 fp16 / df16 lanes, 32 fp32 lanes (one
// 128-byte stick per instruction), and its vector instructions: arithmetic, the
// transcendentals and the spyreop intrinsics (the patterns below map each onto one).
#SFU = {
  kind = "SFU",
  ktdf_arch.features = {
    ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, !spyreop.df16 = 64, f32 = 32>}
  },
  ktdf_arch.instructions = [
    "add", "sub", "mul", "div", "max", "min", "neg", "abs", "fma",
    "exp", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "gelu", "silu", "softplus",
    "layernormscale", "layernormnorm", "exx2_mean", "exx2_squares", "select",
    "cmp_eq", "cmp_ne", "cmp_gt", "cmp_ge", "cmp_lt", "cmp_le"
  ],
  ktdf_arch.issue_cycles = {plain = 1, transcendental = 4, reduction_step = 1},
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["issue_cycles", "scalar_cycles"]
}
// Its accumulator registers.
#SFU_REG = {kind = "SFU_REG", size = 2048, ktdf_arch.example_values = ["size"]}

// The matrix unit of a sub-core: one step a cycle multiplies a column of 8 fp16
// elements by a row of 64 and adds the outer product to fp32 accumulators (8 x 64
// multiply-accumulates: 1,024 flop per cycle, 2,048 per core with both sub-cores).
// It takes the left operand row-major (m x k, each step's column of it read across
// its rows) and the right one either k x n or n x k (transposed_rhs: each step's row
// a column of the block, as it reads the left one), an example value.
#PT = {
  kind = "PT",
  ktdf_arch.features = {
    ktdf_arch.feature.matrix = {
      rows = 8, lanes = 64, input = f16, accumulator = f32,
      issue_cycles = 1, fill = 8, drain = 8, transposed_rhs
    }
  },
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["matrix.fill", "matrix.drain", "matrix.transposed_rhs", "scalar_cycles"]
}
// Its accumulators: 64 KiB beside it (16,384 fp32), read and written in place.
#PT_ACC = {kind = "PT_ACC", size = 65536, ktdf_arch.example_values = ["size"]}
// Load unit -> matrix unit (operands) and matrix unit -> store unit (accumulators):
// FIFOs of 128 sticks, room for two operand blocks in flight.
#PT_FIFO = {
  kind = "fifo",
  ktdf_arch.transfer_granularity = array<i64: 128>,
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 128, size = 128, ordered}},
  ktdf_arch.example_values = ["bandwidth", "transfer_latency", "queue.depth"]
}

// Scratchpad load and store units of a sub-core: whole sticks (64 fp16), or one
// 2-byte element that the load unit splats across the lanes.
#L1_ACCESS = {
  access_granularity = #ktdf_arch.map<
    "L1" = [{size_in_words = 128, align_in_words = 128}, {size_in_words = 2, align_in_words = 2}]
  >
}
#L1LU = {
  kind = "L1LU",
  ktdf_arch.features = {
    ktdf_arch.feature.load = #L1_ACCESS,
    ktdf_arch.feature.simd = {splat, zero_pad}
  },
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["scalar_cycles"]
}
#L1SU = {
  kind = "L1SU",
  ktdf_arch.features = {ktdf_arch.feature.store = #L1_ACCESS},
  ktdf_arch.scalar_cycles = {scalar = 1, control = 1},
  ktdf_arch.example_values = ["scalar_cycles"]
}

// Scratchpad <-> load/store unit.
#L1_PORT = {
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 2,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, size = 128, ordered}},
  ktdf_arch.example_values = ["bandwidth", "transfer_latency"]
}
// Load/store unit <-> SIMD engine: FIFOs of depth 16, one stick per beat.
#SFU_FIFO = {
  kind = "fifo",
  ktdf_arch.transfer_granularity = array<i64: 128, 2>,
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, size = 128, ordered}},
  ktdf_arch.example_values = ["bandwidth", "transfer_latency"]
}

ktdf_arch.device @spyre attributes {
  ktdf_arch.clock_mhz = 1000,
  ktdf_arch.example_values = ["clock_mhz"],
  mem_space_mapping = #ktdf_arch.map<
    #ktdp.memory_space<global> = "DDR",
    #ktdp.memory_space<ct_local> = "L1"
  >
} {
  %ddr = memory @ddr #DDR

  // 32 cores, written once, on a bidirectional ring through their ring stops.
  group @core {
    kind = "core",
    ktdf_arch.count = 32,
    ktdf_arch.interconnect = {topology = "ring", stop = @ring, bandwidth = 128, latency = 8},
    ktdf_arch.example_values = ["interconnect.latency"]
  } share(%ddr) {
    %l1 = memory @l1 #L1

    %mnilu = exec_unit @mnilu #MNILU
    %mnisu = exec_unit @mnisu #MNISU
    datapath #DMA_DDR_LINK %ddr to %mnilu : memory, exec_unit
    datapath #DMA_L1_LINK %mnilu to %l1 : exec_unit, memory
    datapath #DMA_L1_LINK %l1 to %mnisu : memory, exec_unit
    datapath #DMA_DDR_LINK %mnisu to %ddr : exec_unit, memory

    %ring = exec_unit @ring #RING
    datapath #RING_LINK %l1 to %ring : memory, exec_unit
    datapath #RING_LINK %ring to %l1 : exec_unit, memory

    // Two sub-cores sharing the scratchpad.
    group @subcore {kind = "subcore", ktdf_arch.count = 2} share(%l1) {
      %sfu = group @sfu_block {kind = "SFU_Block"} share() {
        %reg = memory @reg #SFU_REG
        %unit = exec_unit @sfu #SFU
        yield %unit
      } -> exec_unit
      %l1lu = exec_unit @l1lu #L1LU
      %l1su = exec_unit @l1su #L1SU
      datapath #L1_PORT %l1 to %l1lu : memory, exec_unit
      datapath #SFU_FIFO %l1lu to %sfu : exec_unit, exec_unit
      datapath #SFU_FIFO %sfu to %l1su : exec_unit, exec_unit
      datapath #L1_PORT %l1su to %l1 : exec_unit, memory
      %pt = group @pt_block {kind = "PT_Block"} share() {
        %acc = memory @acc #PT_ACC
        %unit = exec_unit @pt #PT
        yield %unit
      } -> exec_unit
      datapath #PT_FIFO %l1lu to %pt : exec_unit, exec_unit
      datapath #PT_FIFO %pt to %l1su : exec_unit, exec_unit
    }
  }

  // Device rewrites, by application point. At pre_mapping the SFU takes every
  // spyreop intrinsic that has a formula: ktdf_arch.map_to_instruction maps the op
  // onto the instruction (listed in the SFU's ktdf_arch.instructions) that the
  // lowering then emits; the integer and address intrinsics become arith on the
  // programs' scalars.
  patterns ["pre_mapping"] {
    // One operand, one result, one instruction of the same name.
    pdl.pattern @exp : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "exp"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @gelu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.gelu"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "gelu"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @sigmoid : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.sigmoid"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "sigmoid"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @silu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.silu"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "silu"
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
    // softplus: its beta and threshold become the instruction's f32 parameters.
    pdl.pattern @softplus : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %beta = pdl.attribute
      %threshold = pdl.attribute
      %root = pdl.operation "spyreop.softplus"(%x : !pdl.value) {"beta" = %beta, "threshold" = %threshold} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "softplus"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction, %beta, %threshold : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
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
    pdl.pattern @select : benefit(1) {
      %type = pdl.type
      %condition = pdl.operand : %type
      %on_true = pdl.operand : %type
      %on_false = pdl.operand : %type
      %root = pdl.operation "spyreop.select"(%condition, %on_true, %on_false : !pdl.value, !pdl.value, !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "select"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    // compare: one instruction per predicate.
    pdl.pattern @compare_equal : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %predicate = pdl.attribute = #spyreop.compare_predicate<equal>
      %root = pdl.operation "spyreop.compare"(%a, %b : !pdl.value, !pdl.value) {"predicate" = %predicate} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "cmp_eq"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @compare_notequal : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %predicate = pdl.attribute = #spyreop.compare_predicate<notequal>
      %root = pdl.operation "spyreop.compare"(%a, %b : !pdl.value, !pdl.value) {"predicate" = %predicate} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "cmp_ne"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @compare_greaterthan : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %predicate = pdl.attribute = #spyreop.compare_predicate<greaterthan>
      %root = pdl.operation "spyreop.compare"(%a, %b : !pdl.value, !pdl.value) {"predicate" = %predicate} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "cmp_gt"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @compare_greaterequal : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %predicate = pdl.attribute = #spyreop.compare_predicate<greaterequal>
      %root = pdl.operation "spyreop.compare"(%a, %b : !pdl.value, !pdl.value) {"predicate" = %predicate} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "cmp_ge"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @compare_lesserthan : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %predicate = pdl.attribute = #spyreop.compare_predicate<lesserthan>
      %root = pdl.operation "spyreop.compare"(%a, %b : !pdl.value, !pdl.value) {"predicate" = %predicate} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "cmp_lt"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @compare_lesserequal : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %predicate = pdl.attribute = #spyreop.compare_predicate<lesserequal>
      %root = pdl.operation "spyreop.compare"(%a, %b : !pdl.value, !pdl.value) {"predicate" = %predicate} -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "cmp_le"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    // The layer-norm steps. exx2 has two results, one instruction each; its fused
    // form holds them in one value, which layernormscale_fused takes apart.
    pdl.pattern @exx2 : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exx2"(%x : !pdl.value) -> (%type, %type : !pdl.type, !pdl.type)
      pdl.rewrite %root {
        %instructions = pdl.attribute = ["exx2_mean", "exx2_squares"]
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instructions : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @exx2_fused : benefit(1) {
      %type = pdl.type
      %fused = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exx2_fused"(%x : !pdl.value) -> (%fused : !pdl.type)
      pdl.rewrite %root {
        %instructions = pdl.attribute = ["exx2_mean", "exx2_squares"]
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instructions : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @layernormscale : benefit(1) {
      %type = pdl.type
      %mean = pdl.operand : %type
      %squares = pdl.operand : %type
      %root = pdl.operation "spyreop.layernormscale"(%mean, %squares : !pdl.value, !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "layernormscale"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @layernormscale_fused : benefit(1) {
      %type = pdl.type
      %fused = pdl.type
      %pair = pdl.operand : %fused
      %root = pdl.operation "spyreop.layernormscale_fused"(%pair : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "layernormscale"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @layernormnorm : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %mean = pdl.operand : %type
      %scale = pdl.operand : %type
      %weight = pdl.operand : %type
      %bias = pdl.operand : %type
      %root = pdl.operation "spyreop.layernormnorm"(%x, %mean, %scale, %weight, %bias : !pdl.value, !pdl.value, !pdl.value, !pdl.value, !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "layernormnorm"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    // Integer and address arithmetic: the programs' scalar arith, which wraps alike.
    pdl.pattern @addi32toi32 : benefit(1) {
      %i32 = pdl.type : i32
      %a = pdl.operand : %i32
      %b = pdl.operand : %i32
      %root = pdl.operation "spyreop.addi32toi32"(%a, %b : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
      pdl.rewrite %root {
        %sum = pdl.operation "arith.addi"(%a, %b : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
        pdl.replace %root with %sum
      }
    }
    pdl.pattern @addi64toi64 : benefit(1) {
      %i64 = pdl.type : i64
      %a = pdl.operand : %i64
      %b = pdl.operand : %i64
      %root = pdl.operation "spyreop.addi64toi64"(%a, %b : !pdl.value, !pdl.value) -> (%i64 : !pdl.type)
      pdl.rewrite %root {
        %sum = pdl.operation "arith.addi"(%a, %b : !pdl.value, !pdl.value) -> (%i64 : !pdl.type)
        pdl.replace %root with %sum
      }
    }
    pdl.pattern @muli32toi32 : benefit(1) {
      %i32 = pdl.type : i32
      %a = pdl.operand : %i32
      %b = pdl.operand : %i32
      %root = pdl.operation "spyreop.muli32toi32"(%a, %b : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
      pdl.rewrite %root {
        %product = pdl.operation "arith.muli"(%a, %b : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
        pdl.replace %root with %product
      }
    }
    // idx32toaddr, base + stride * index: with base and stride operands, and in the
    // older form with them as constants.
    pdl.pattern @idx32toaddr : benefit(1) {
      %i32 = pdl.type : i32
      %index = pdl.operand : %i32
      %base = pdl.operand : %i32
      %stride = pdl.operand : %i32
      %root = pdl.operation "spyreop.idx32toaddr"(%index, %base, %stride : !pdl.value, !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
      pdl.rewrite %root {
        %scaled_op = pdl.operation "arith.muli"(%stride, %index : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
        %scaled = pdl.result 0 of %scaled_op
        %address = pdl.operation "arith.addi"(%base, %scaled : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
        pdl.replace %root with %address
      }
    }
    pdl.pattern @idx32toaddr_constants : benefit(1) {
      %i32 = pdl.type : i32
      %index = pdl.operand : %i32
      %base_value = pdl.attribute
      %stride_value = pdl.attribute
      %root = pdl.operation "spyreop.idx32toaddr"(%index : !pdl.value) {"base_address" = %base_value, "stride" = %stride_value} -> (%i32 : !pdl.type)
      pdl.rewrite %root {
        %base_op = pdl.operation "arith.constant" {"value" = %base_value} -> (%i32 : !pdl.type)
        %base = pdl.result 0 of %base_op
        %stride_op = pdl.operation "arith.constant" {"value" = %stride_value} -> (%i32 : !pdl.type)
        %stride = pdl.result 0 of %stride_op
        %scaled_op = pdl.operation "arith.muli"(%stride, %index : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
        %scaled = pdl.result 0 of %scaled_op
        %address = pdl.operation "arith.addi"(%base, %scaled : !pdl.value, !pdl.value) -> (%i32 : !pdl.type)
        pdl.replace %root with %address
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
