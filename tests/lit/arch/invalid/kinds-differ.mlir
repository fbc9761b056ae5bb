// Resources of one kind must be alike.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    // CHECK: kinds-differ.mlir:[[# @LINE + 1]]:5: error: exec_unit "DMA" differs from the first of its kind at {{.*}}kinds-differ.mlir:[[# @LINE - 1]]:5; resources of one kind must be alike
    %dma2 = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load}}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
