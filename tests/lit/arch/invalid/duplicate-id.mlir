// Two resources of one group may not share an id.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit @x {kind = "DMA"}
    // CHECK: duplicate-id.mlir:[[# @LINE + 1]]:5: error: 'ktdf_arch.exec_unit' op resource with id "x" redefined
    %pe = exec_unit @x {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
