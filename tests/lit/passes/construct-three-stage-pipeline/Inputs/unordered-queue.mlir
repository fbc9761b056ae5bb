// A device whose compute engine reads the scratchpad through a queue that does not
// keep its order.

ktdf_arch.device @unordered {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2}}} %l1 to %pe : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
