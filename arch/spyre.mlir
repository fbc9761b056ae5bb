// IBM Spyre: 32 cores on a bidirectional ring, each with a 2 MB scratchpad (LX,
// named "L1" here as in IBM's scheduler) shared by two sub-cores, each sub-core a
// 64-lane SIMD engine (the SFU) fed by a load unit and drained by a store unit
// through FIFOs of depth 16. DMA engines move 128-byte sticks between device memory
// (LPDDR5, named "DDR") and the scratchpad.
//
// Public figures: 32 cores, 2 sub-cores per core, 2 MB scratchpad, ring at 128 B
// per cycle per direction, 128-byte sticks, 64 fp16 lanes, up to 128 GB of device
// memory. Every other figure is an example value, listed in the op's
// ktdf_arch.example_values: the clock (1 GHz), device memory bandwidth (128 B per
// cycle, i.e. 128 GB/s at 1 GHz), latencies, issue costs, FIFO beat widths and the
// register file size.
//
// Units are cycles and bytes. See docs/arch-format.md for the format.

// Device memory: 128 GiB, 128 B/cycle shared by all cores.
#DDR = {
  kind = "DDR",
  size = 137438953472,
  ktdf_arch.port_bandwidth = 128,
  ktdf_arch.example_values = ["port_bandwidth"]
}

// Scratchpad: 2 MiB per core.
#L1 = {kind = "L1", size = 2097152}

// DMA load (device memory -> scratchpad) and store (scratchpad -> device memory)
// engines, addressing both memories in 128-byte words.
#DMA_ACCESS = {
  word_size = #ktdf_arch.map<"DDR" = 128, "L1" = 128>,
  access_granularity = #ktdf_arch.map<
    "DDR" = [{size_in_words = 1, align_in_words = 1}],
    "L1" = [{size_in_words = 1, align_in_words = 1}]
  >
}
#MNILU = {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = #DMA_ACCESS}}
#MNISU = {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = #DMA_ACCESS}}

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
  }
}
#RING_LINK = {
  ktdf_arch.transfer_granularity = array<i64: 128>,
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 4,
  ktdf_arch.example_values = ["bandwidth", "transfer_latency"]
}

// The SIMD engine of a sub-core: 64 fp16 / df16 lanes, 32 fp32 lanes (one
// 128-byte stick per instruction).
#SFU = {
  kind = "SFU",
  ktdf_arch.features = {
    ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, !spyreop.df16 = 64, f32 = 32>}
  },
  ktdf_arch.issue_cycles = {plain = 1, transcendental = 4, reduction_step = 1},
  ktdf_arch.example_values = ["issue_cycles"]
}
// Its accumulator registers.
#SFU_REG = {kind = "SFU_REG", size = 2048, ktdf_arch.example_values = ["size"]}

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
  }
}
#L1SU = {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = #L1_ACCESS}}

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
    }
  }

  // Device rewrites, by application point. The chip's instruction templates for
  // spyreop intrinsics and its SIMD reductions are written here as PDL patterns.
  patterns ["pre_mapping"] {
  }
  patterns ["pre_scheduling"] {
  }
  patterns ["post_scheduling"] {
  }
  patterns ["post_lowering"] {
  }
}
