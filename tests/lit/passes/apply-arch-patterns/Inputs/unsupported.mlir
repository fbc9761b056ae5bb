// A device whose patterns xDSL's PDL interpreter cannot run as written, one kind
// per application point, and one that never stops rewriting.

ktdf_arch.device @unsupported {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %l1 to %sfu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %sfu to %l1 : exec_unit, memory
    datapath %l1 to %dma : memory, exec_unit
    datapath %dma to %ddr : exec_unit, memory
  }

  // A value range.
  patterns ["pre_mapping"] {
    pdl.pattern @any_operands : benefit(1) {
      %args = pdl.operands
      %root = pdl.operation "spyreop.exp"(%args : !pdl.range<value>)
      pdl.rewrite %root {
        pdl.erase %root
      }
    }
  }

  // A native constraint that does not exist.
  patterns ["pre_scheduling"] {
    pdl.pattern @unknown_constraint : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.apply_native_constraint "ktdf_arch.is_fast"(%root : !pdl.operation)
      pdl.rewrite %root {
        %exp = pdl.operation "math.exp"(%x : !pdl.value) -> (%type : !pdl.type)
        pdl.replace %root with %exp
      }
    }
  }

  // exp rewritten into a new exp, forever.
  patterns ["post_scheduling"] {
    pdl.pattern @exp_again : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %exp = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
        pdl.replace %root with %exp
      }
    }
  }

  // A negated native constraint.
  patterns ["post_lowering"] {
    pdl.pattern @not_mapped : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      %sfu = pdl.attribute = "SFU"
      pdl.apply_native_constraint "ktdf_arch.mapped_to"(%root, %sfu : !pdl.operation, !pdl.attribute) {isNegated = true}
      pdl.rewrite %root {
        pdl.apply_native_rewrite "ktdf_arch.map_to"(%root, %sfu : !pdl.operation, !pdl.attribute)
      }
    }
  }
}
