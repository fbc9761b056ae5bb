// A matrix unit's optional transposed_rhs is a flag (a unit attribute), not a value.

// RUN: not ktc arch check %s 2>&1 | filecheck %s
// CHECK-NOT: Traceback

ktdf_arch.device @d {
  %ddr = memory {kind = "DDR", size = 1024}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 256}
    %dma = exec_unit {kind = "DMA"}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load = {}}}
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store = {}}}
    %mx = group {kind = "MX_Block"} share(%l1) {
      %acc = memory {kind = "ACC", size = 4096}
      // CHECK: matrix-transposed-value.mlir:[[# @LINE + 1]]:7: error: 'ktdf_arch.exec_unit' op 'ktdf_arch.feature.matrix': 'transposed_rhs' requires unit
      %unit = exec_unit {kind = "MX", ktdf_arch.features = {ktdf_arch.feature.matrix = {rows = 8, lanes = 64, input = f16, accumulator = f32, issue_cycles = 1, fill = 8, drain = 8, transposed_rhs = 1}}}
      yield %unit
    } -> exec_unit
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
    datapath %l1 to %lu : memory, exec_unit
    datapath %su to %l1 : exec_unit, memory
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 16, ordered}}} %lu to %mx : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 16, ordered}}} %mx to %su : exec_unit, exec_unit
  }
}
