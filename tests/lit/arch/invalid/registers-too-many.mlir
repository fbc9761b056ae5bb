// An execution unit's register files (ktdf_arch.registers) hold at most 256
// registers each, as many as an instruction's 8-bit register field names: 300
// views are refused at the unit that states them.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    // CHECK: registers-too-many.mlir:[[# @LINE + 1]]:5: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.registers' field 'views' must be at most 256
    %dma = exec_unit {kind = "DMA", ktdf_arch.registers = {scalars = 64, vectors = 64, views = 300}}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
