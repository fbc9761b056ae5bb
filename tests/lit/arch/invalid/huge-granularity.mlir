// Figures are bounded too: a transfer granularity of 2^40 bytes is refused in the arch
// file, where it is written, rather than by the pass that would allocate for it.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    // CHECK: huge-granularity.mlir:[[# @LINE + 1]]:5: error: 'ktdf_arch.transfer_granularity' is 1099511627776; it must be from 1 to 1048576
    datapath {ktdf_arch.transfer_granularity = array<i64: 16, 1099511627776>} %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
