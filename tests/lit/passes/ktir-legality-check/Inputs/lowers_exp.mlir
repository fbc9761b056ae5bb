// A one-core device shaped like the toy device whose patterns lower one intrinsic
// before scheduling (spyreop.exp becomes math.exp at pre_scheduling) and map
// another only after lowering (spyreop.sigmoid, at post_lowering).

ktdf_arch.device @lowers_exp {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %mnilu = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %mnisu = exec_unit {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store}}
    %l1lu = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %l1su = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
    datapath %ddr to %mnilu : memory, exec_unit
    datapath %mnilu to %l1 : exec_unit, memory
    datapath %l1 to %l1lu : memory, exec_unit
    datapath %l1lu to %sfu : exec_unit, exec_unit
    datapath %sfu to %l1su : exec_unit, exec_unit
    datapath %l1su to %l1 : exec_unit, memory
    datapath %l1 to %mnisu : memory, exec_unit
    datapath %mnisu to %ddr : exec_unit, memory
  }

  patterns ["pre_scheduling"] {
    pdl.pattern @exp : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %exp = pdl.operation "math.exp"(%x : !pdl.value) -> (%type : !pdl.type)
        pdl.replace %root with %exp
      }
    }
  }

  patterns ["post_lowering"] {
    pdl.pattern @sigmoid : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.sigmoid"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %sfu = pdl.attribute = "SFU"
        pdl.apply_native_rewrite "ktdf_arch.map_to"(%root, %sfu : !pdl.operation, !pdl.attribute)
      }
    }
  }
}
