// A device with no timing at all, as IBM's format allows: one core, one DMA engine,
// one compute engine.

ktdf_arch.device @untimed {
  %ddr = memory {kind = "DDR", size = 4096}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 1024}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 4>}}}
    datapath {ktdf_arch.transfer_granularity = array<i64: 8>} %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
