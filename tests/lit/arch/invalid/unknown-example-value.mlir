// ktdf_arch.example_values may only name figures the op gives.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    // CHECK: unknown-example-value.mlir:[[# @LINE + 1]]:5: error: example value 'port_bandwidth' names no figure given here
    %l1 = memory {kind = "L1", size = 256, ktdf_arch.example_values = ["port_bandwidth"]}
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
