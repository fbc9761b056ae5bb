// The toy device (arch/toy.mlir) with every FIFO one beat deep instead of two.
// Shaped like Spyre (the same kinds, so one test reads on both): 2 cores on a
// ring, one sub-core each, a 64 KiB scratchpad, 8 fp16 lanes (one 16-byte vector),
// FIFOs 1 beat deep, 16-byte DMA granularity and a device memory of 1 MiB.
// Every figure is made up; see docs/arch-format.md for the format.

#DMA_ACCESS = {
  word_size = #ktdf_arch.map<"DDR" = 16, "L1" = 16>,
  access_granularity = #ktdf_arch.map<
    "DDR" = [{size_in_words = 1, align_in_words = 1}],
    "L1" = [{size_in_words = 1, align_in_words = 1}]
  >
}
#DMA_LINK = {
  ktdf_arch.transfer_granularity = array<i64: 16>,
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 10
}
#RING = {
  kind = "RING",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"L1" = 16>},
    ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"L1" = 16>}
  }
}
#RING_LINK = {ktdf_arch.bandwidth = 16, ktdf_arch.transfer_latency = 1}
#L1_ACCESS = {
  access_granularity = #ktdf_arch.map<
    "L1" = [{size_in_words = 16, align_in_words = 16}, {size_in_words = 2, align_in_words = 2}]
  >
}
#L1_PORT = {
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 1, size = 16, ordered}}
}
#SFU_FIFO = {
  kind = "fifo",
  ktdf_arch.transfer_granularity = array<i64: 16, 2>,
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 1, size = 16, ordered}}
}

ktdf_arch.device @toy_fifo_depth_1 attributes {
  ktdf_arch.clock_mhz = 100,
  mem_space_mapping = #ktdf_arch.map<
    #ktdp.memory_space<global> = "DDR",
    #ktdp.memory_space<ct_local> = "L1"
  >
} {
  %ddr = memory @ddr {kind = "DDR", size = 1048576, ktdf_arch.port_bandwidth = 16}

  group @core {
    kind = "core",
    ktdf_arch.count = 2,
    ktdf_arch.interconnect = {topology = "ring", stop = @ring, bandwidth = 8, latency = 2}
  } share(%ddr) {
    %l1 = memory @l1 {kind = "L1", size = 65536}

    %mnilu = exec_unit @mnilu {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = #DMA_ACCESS}}
    %mnisu = exec_unit @mnisu {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = #DMA_ACCESS}}
    datapath #DMA_LINK %ddr to %mnilu : memory, exec_unit
    datapath #DMA_LINK %mnilu to %l1 : exec_unit, memory
    datapath #DMA_LINK %l1 to %mnisu : memory, exec_unit
    datapath #DMA_LINK %mnisu to %ddr : exec_unit, memory

    %ring = exec_unit @ring #RING
    datapath #RING_LINK %l1 to %ring : memory, exec_unit
    datapath #RING_LINK %ring to %l1 : exec_unit, memory

    group @subcore {kind = "subcore"} share(%l1) {
      %sfu = group @sfu_block {kind = "SFU_Block"} share() {
        %reg = memory @reg {kind = "SFU_REG", size = 256}
        %unit = exec_unit @sfu {
          kind = "SFU",
          ktdf_arch.features = {
            ktdf_arch.feature.compute,
            ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, !spyreop.df16 = 8, f32 = 4>}
          },
          ktdf_arch.issue_cycles = {plain = 1, transcendental = 4, reduction_step = 1}
        }
        yield %unit
      } -> exec_unit
      %l1lu = exec_unit @l1lu {
        kind = "L1LU",
        ktdf_arch.features = {ktdf_arch.feature.load = #L1_ACCESS, ktdf_arch.feature.simd = {splat, zero_pad}}
      }
      %l1su = exec_unit @l1su {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = #L1_ACCESS}}
      datapath #L1_PORT %l1 to %l1lu : memory, exec_unit
      datapath #SFU_FIFO %l1lu to %sfu : exec_unit, exec_unit
      datapath #SFU_FIFO %sfu to %l1su : exec_unit, exec_unit
      datapath #L1_PORT %l1su to %l1 : exec_unit, memory
    }
  }

  patterns ["pre_mapping"] {
  }
  patterns ["pre_scheduling"] {
  }
  patterns ["post_scheduling"] {
  }
  patterns ["post_lowering"] {
  }
}
