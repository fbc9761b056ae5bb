// A device shaped like the toy device (one core, no timing) whose patterns give
// templates for some spyreop intrinsics: at pre_scheduling, exp becomes math.exp
// (with fast math for f32, a pattern of higher benefit written after the general
// one) and an f16 sigmoid becomes 1 / (1 + exp(-x)); at pre_mapping, sqrt becomes
// math.sqrt; at post_lowering, IBM's native functions map gelu to the SFU and
// then give it a feature, and map an exp that has that feature. No pattern runs
// at post_scheduling.

ktdf_arch.device @intrinsics {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 65536}
    %mnilu = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %mnisu = exec_unit {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store}}
    %l1lu = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %l1su = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, f32 = 4>}}}
    datapath %ddr to %mnilu : memory, exec_unit
    datapath %mnilu to %l1 : exec_unit, memory
    datapath %l1 to %l1lu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %l1lu to %sfu : exec_unit, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, ordered}}} %sfu to %l1su : exec_unit, exec_unit
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
    pdl.pattern @exp_f32 : benefit(2) {
      %f32 = pdl.type : f32
      %x = pdl.operand : %f32
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%f32 : !pdl.type)
      pdl.rewrite %root {
        %fast = pdl.attribute = #arith.fastmath<fast>
        %exp = pdl.operation "math.exp"(%x : !pdl.value) {"fastmath" = %fast} -> (%f32 : !pdl.type)
        pdl.replace %root with %exp
      }
    }
    pdl.pattern @sigmoid_f16 : benefit(1) {
      %f16 = pdl.type : f16
      %x = pdl.operand : %f16
      %root = pdl.operation "spyreop.sigmoid"(%x : !pdl.value) -> (%f16 : !pdl.type)
      pdl.rewrite %root {
        %one_attr = pdl.attribute = 1.000000e+00 : f16
        %one_op = pdl.operation "arith.constant" {"value" = %one_attr} -> (%f16 : !pdl.type)
        %one = pdl.result 0 of %one_op
        %neg_op = pdl.operation "arith.negf"(%x : !pdl.value) -> (%f16 : !pdl.type)
        %neg = pdl.result 0 of %neg_op
        %exp_op = pdl.operation "math.exp"(%neg : !pdl.value) -> (%f16 : !pdl.type)
        %exp = pdl.result 0 of %exp_op
        %sum_op = pdl.operation "arith.addf"(%one, %exp : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        %sum = pdl.result 0 of %sum_op
        %div = pdl.operation "arith.divf"(%one, %sum : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        pdl.replace %root with %div
      }
    }
  }

  patterns ["pre_mapping"] {
    pdl.pattern @sqrt : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.sqrt"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %sqrt = pdl.operation "math.sqrt"(%x : !pdl.value) -> (%type : !pdl.type)
        pdl.replace %root with %sqrt
      }
    }
  }

  patterns ["post_lowering"] {
    pdl.pattern @map_gelu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.gelu"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %sfu = pdl.attribute = "SFU"
        pdl.apply_native_rewrite "ktdf_arch.map_to"(%root, %sfu : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @tag_mapped_gelu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.gelu"(%x : !pdl.value) -> (%type : !pdl.type)
      %sfu = pdl.attribute = "SFU"
      pdl.apply_native_constraint "ktdf_arch.mapped_to"(%root, %sfu : !pdl.operation, !pdl.attribute)
      pdl.rewrite %root {
        %name = pdl.attribute = "estimate"
        %value = pdl.attribute = unit
        pdl.apply_native_rewrite "ktdf_arch.set_feature"(%root, %name, %value : !pdl.operation, !pdl.attribute, !pdl.attribute)
      }
    }
    pdl.pattern @map_estimated_exp : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      %name = pdl.attribute = "estimate"
      pdl.apply_native_constraint "ktdf_arch.has_feature"(%root, %name : !pdl.operation, !pdl.attribute)
      pdl.rewrite %root {
        %sfu = pdl.attribute = "SFU"
        pdl.apply_native_rewrite "ktdf_arch.map_to"(%root, %sfu : !pdl.operation, !pdl.attribute)
      }
    }
  }
}
