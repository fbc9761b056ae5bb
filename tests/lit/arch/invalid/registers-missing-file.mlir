// An execution unit that gives its register files gives all three: scalars,
// vectors and views.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    // CHECK: registers-missing-file.mlir:[[# @LINE + 1]]:5: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.registers' requires field 'vectors'
    %dma = exec_unit {kind = "DMA", ktdf_arch.registers = {scalars = 64}}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
