// The matrix unit is an execution unit of its own, not the compute engine.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    // CHECK: matrix-and-compute.mlir:[[# @LINE + 1]]:5: error: exec_unit "PE" is both the compute engine and a matrix unit; give the matrix unit an exec_unit of its own
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {rows = 8, lanes = 64, input = f16, accumulator = f32, issue_cycles = 1, fill = 8, drain = 8}}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }
}
