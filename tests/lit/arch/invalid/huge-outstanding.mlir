// The copies an execution unit has in flight at most (ktdf_arch.outstanding) are
// bounded: 2^20 is refused at the unit that states it.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    // CHECK: huge-outstanding.mlir:[[# @LINE + 1]]:5: error: 'ktdf_arch.outstanding' is 1048576; it must be from 1 to 65536
    %dma = exec_unit {kind = "DMA", ktdf_arch.outstanding = 1048576}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
