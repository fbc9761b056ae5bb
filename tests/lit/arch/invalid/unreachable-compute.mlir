// Every compute engine must be reachable from device memory.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    // CHECK: unreachable-compute.mlir:[[# @LINE + 1]]:5: error: PE[0] cannot be reached from device memory "DDR"
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
