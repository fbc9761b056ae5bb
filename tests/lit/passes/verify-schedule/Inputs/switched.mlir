// A one-core device whose load unit reaches the SIMD engine only through a
// two-port switch, and whose store unit is wired to it directly.

ktdf_arch.device @switched {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    %simd = exec_unit {kind = "SIMD", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
    %xbar:2 = switch [2] {connectivity = dense<[[false, true], [false, false]]> : tensor<2x2xi1>}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
    datapath %l1 to %lu : memory, exec_unit
    datapath %lu to %xbar#0 : exec_unit, port
    datapath %xbar#1 to %simd : port, exec_unit
    datapath %simd to %su : exec_unit, exec_unit
    datapath %su to %l1 : exec_unit, memory
  }
}
