// A group can only share a memory that exists; ktc-opt reports it the same way.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// RUN: not ktc-opt %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  // CHECK: share-missing-memory.mlir:[[# @LINE + 1]]:31: error: use of undeclared SSA value name %hbm
  group {kind = "core"} share(%hbm) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %hbm to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %hbm : exec_unit, memory
  }
}
