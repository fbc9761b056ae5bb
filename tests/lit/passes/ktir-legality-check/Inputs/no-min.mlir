// The line4 test chip (tests/lit/arch/Inputs/line4.mlir) with a vector unit that has
// neither a select nor a min instruction, so a select has no lowering.

#QUEUE = {
  ktdf_arch.bandwidth = 128,
  ktdf_arch.transfer_latency = 3,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 64, ordered}}
}

ktdf_arch.device @line4_nomin attributes {
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
      ktdf_arch.instructions = ["add", "sub", "mul", "div", "max", "neg", "abs", "fma", "exp"]
    }
    datapath #QUEUE %spm to %vpu : memory, exec_unit
    datapath #QUEUE %vpu to %spm : exec_unit, memory
  }
}
