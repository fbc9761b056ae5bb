// An interconnect's bandwidth must be positive.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  // CHECK: zero-interconnect-bandwidth.mlir:[[# @LINE + 1]]:3: error: 'ktdf_arch.group' op 'ktdf_arch.interconnect' field 'bandwidth' must be > 0
  group {kind = "core", ktdf_arch.count = 2, ktdf_arch.interconnect = {topology = "ring", stop = @dma, bandwidth = 0, latency = 1}} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit @dma {kind = "DMA"}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
