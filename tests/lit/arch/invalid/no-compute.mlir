// A device needs an execution unit with the compute feature.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

// CHECK: no-compute.mlir:[[# @LINE + 1]]:1: error: device @d has no compute engine (an exec_unit with ktdf_arch.feature.compute)
ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    %pe = exec_unit {kind = "PE"}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
