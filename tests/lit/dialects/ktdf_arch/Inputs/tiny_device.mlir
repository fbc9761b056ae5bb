// A one-core device for the --arch tests: DDR, a scratchpad, a DMA unit and a
// SIMD unit fed through a FIFO.

#QUEUE = {
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}
}

ktdf_arch.device @tiny {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 16384}
    %dma = exec_unit {kind = "DMA"}
    %simd = exec_unit {
      kind = "SIMD",
      ktdf_arch.features = {
        ktdf_arch.feature.compute,
        ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}
      }
    }
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath #QUEUE %l1 to %simd : memory, exec_unit
  }
}
