// A device with a memory nothing is linked to: a read-only "ROM" beside the
// scratchpad, so no path leads from it to the compute engine. Untimed; only the
// structure matters to path-expansion.

ktdf_arch.device @island attributes {
  mem_space_mapping = #ktdf_arch.map<
    #ktdp.memory_space<global> = "DDR",
    #ktdp.memory_space<ct_local> = "L1"
  >
} {
  %ddr = memory @ddr {kind = "DDR", size = 1048576}
  group @core {kind = "core"} share(%ddr) {
    %l1 = memory @l1 {kind = "L1", size = 65536}
    %rom = memory @rom {kind = "ROM", size = 4096}
    %dma = exec_unit @dma {kind = "DMA"}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
    %sfu = exec_unit @sfu {
      kind = "SFU",
      ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}
    }
    %lu = exec_unit @lu {kind = "LU"}
    %su = exec_unit @su {kind = "SU"}
    datapath %l1 to %lu : memory, exec_unit
    datapath %lu to %sfu : exec_unit, exec_unit
    datapath %sfu to %su : exec_unit, exec_unit
    datapath %su to %l1 : exec_unit, memory
  }
}
