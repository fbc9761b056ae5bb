// A datapath outside two replicated groups cannot tell which instances it joins.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  %a = group {ktdf_arch.count = 2} share() {
    %u = exec_unit {kind = "U"}
    yield %u
  } -> exec_unit
  %b = group {ktdf_arch.count = 2} share() {
    %v = exec_unit {kind = "V"}
    yield %v
  } -> exec_unit
  // CHECK: replicated-both-ends.mlir:[[# @LINE + 1]]:3: error: datapath joins two replicated groups; write it inside a group
  datapath %a to %b : exec_unit, exec_unit
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
