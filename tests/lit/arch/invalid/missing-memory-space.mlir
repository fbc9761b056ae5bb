// mem_space_mapping may only map onto memories of the device.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

// CHECK: missing-memory-space.mlir:[[# @LINE + 1]]:1: error: mem_space_mapping maps global to "HBM", which is no memory of this device
ktdf_arch.device @d attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "HBM">} {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
