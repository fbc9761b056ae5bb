// A figure set on the device declaration is bounded like any other, and reported at
// the declaration.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

// CHECK: huge-clock.mlir:[[# @LINE + 1]]:1: error: 'ktdf_arch.clock_mhz' is 100000000000; it must be from 1 to 1048576
ktdf_arch.device @d attributes {ktdf_arch.clock_mhz = 100000000000} {
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
