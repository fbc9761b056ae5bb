// An interconnect joins the cores, so it sits on the group owning the scratchpad.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    // CHECK: interconnect-not-cores.mlir:[[# @LINE + 1]]:5: error: an interconnect joins the cores: give it to the one group that owns the scratchpad, counted as many times as there are cores
    group {ktdf_arch.count = 2, ktdf_arch.interconnect = {topology = "line", stop = @s, bandwidth = 8, latency = 1}} share() {
      %s = exec_unit @s {kind = "STOP"}
    }
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
