// A device whose compute unit lists exp and sigmoid: at pre_mapping a pattern maps
// gelu onto an instruction the unit does not list; at pre_scheduling one names its
// instruction by a value it matched rather than a constant.

ktdf_arch.device @missing_instruction {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}, ktdf_arch.instructions = ["exp", "sigmoid"]}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %l1 to %sfu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %sfu to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }

  patterns ["pre_mapping"] {
    pdl.pattern @gelu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.gelu"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "gelu"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
  }

  patterns ["pre_scheduling"] {
    pdl.pattern @exp : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %named = pdl.attribute
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) {"name" = %named} -> (%type : !pdl.type)
      pdl.rewrite %root {
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %named : !pdl.operation, !pdl.attribute)
      }
    }
  }
}
