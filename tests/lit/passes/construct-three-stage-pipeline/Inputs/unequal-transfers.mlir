// A device whose compute engine takes transfers of up to 16 bytes but gives
// transfers of up to 32.

#IN = {
  ktdf_arch.transfer_granularity = array<i64: 16, 2>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}
}
#OUT = {
  ktdf_arch.transfer_granularity = array<i64: 32>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}
}

ktdf_arch.device @unequal {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath #IN %l1 to %pe : memory, exec_unit
    datapath #OUT %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
