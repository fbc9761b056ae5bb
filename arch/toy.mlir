// A toy device, small on purpose: lit tests meet its limits with small tensors.
// Shaped like Spyre (the same kinds, so one test reads on both): 2 cores on a
// ring, one sub-core each, a 64 KiB scratchpad, 8 fp16 lanes (one 16-byte vector),
// FIFOs 2 beats deep, 16-byte DMA granularity and a device memory of 1 MiB; a
// matrix unit of 2 rows x 8 lanes with 512 bytes of fp32 accumulators, fed and
// drained through FIFOs of 16 beats.
// Every figure is made up; see docs/arch-format.md for the format.

#DMA_ACCESS = {
  word_size = #ktdf_arch.map<"DDR" = 16, "L1" = 16>,
  access_granularity = #ktdf_arch.map<
    "DDR" = [{size_in_words = 1, align_in_words = 1}],
    "L1" = [{size_in_words = 1, align_in_words = 1}]
  >
}
#DMA_LINK = {
  ktdf_arch.transfer_granularity = array<i64: 16>,
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 10
}
#RING = {
  kind = "RING",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"L1" = 16>},
    ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"L1" = 16>}
  }
}
#RING_LINK = {ktdf_arch.bandwidth = 16, ktdf_arch.transfer_latency = 1}
#L1_ACCESS = {
  access_granularity = #ktdf_arch.map<
    "L1" = [{size_in_words = 16, align_in_words = 16}, {size_in_words = 2, align_in_words = 2}]
  >
}
#L1_PORT = {
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, size = 16, ordered}}
}
#PT_FIFO = {
  kind = "fifo",
  ktdf_arch.transfer_granularity = array<i64: 16>,
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, size = 16, ordered}}
}
#SFU_FIFO = {
  kind = "fifo",
  ktdf_arch.transfer_granularity = array<i64: 16, 2>,
  ktdf_arch.bandwidth = 16,
  ktdf_arch.transfer_latency = 1,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 2, size = 16, ordered}}
}

ktdf_arch.device @toy attributes {
  ktdf_arch.clock_mhz = 100,
  mem_space_mapping = #ktdf_arch.map<
    #ktdp.memory_space<global> = "DDR",
    #ktdp.memory_space<ct_local> = "L1"
  >
} {
  %ddr = memory @ddr {kind = "DDR", size = 1048576, ktdf_arch.port_bandwidth = 16}

  group @core {
    kind = "core",
    ktdf_arch.count = 2,
    ktdf_arch.interconnect = {topology = "ring", stop = @ring, bandwidth = 8, latency = 2}
  } share(%ddr) {
    %l1 = memory @l1 {kind = "L1", size = 65536}

    %mnilu = exec_unit @mnilu {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = #DMA_ACCESS}}
    %mnisu = exec_unit @mnisu {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = #DMA_ACCESS}}
    datapath #DMA_LINK %ddr to %mnilu : memory, exec_unit
    datapath #DMA_LINK %mnilu to %l1 : exec_unit, memory
    datapath #DMA_LINK %l1 to %mnisu : memory, exec_unit
    datapath #DMA_LINK %mnisu to %ddr : exec_unit, memory

    %ring = exec_unit @ring #RING
    datapath #RING_LINK %l1 to %ring : memory, exec_unit
    datapath #RING_LINK %ring to %l1 : exec_unit, memory

    group @subcore {kind = "subcore"} share(%l1) {
      %sfu = group @sfu_block {kind = "SFU_Block"} share() {
        %reg = memory @reg {kind = "SFU_REG", size = 256}
        %unit = exec_unit @sfu {
          kind = "SFU",
          ktdf_arch.features = {
            ktdf_arch.feature.compute,
            ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, !spyreop.df16 = 8, f32 = 4>}
          },
          ktdf_arch.issue_cycles = {plain = 1, transcendental = 4, reduction_step = 1},
          ktdf_arch.instructions = [
            "add", "sub", "mul", "div", "max", "min", "neg", "abs", "fma",
            "exp", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "gelu", "silu"
          ]
        }
        yield %unit
      } -> exec_unit
      %l1lu = exec_unit @l1lu {
        kind = "L1LU",
        ktdf_arch.features = {ktdf_arch.feature.load = #L1_ACCESS, ktdf_arch.feature.simd = {splat, zero_pad}}
      }
      %l1su = exec_unit @l1su {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = #L1_ACCESS}}
      datapath #L1_PORT %l1 to %l1lu : memory, exec_unit
      datapath #SFU_FIFO %l1lu to %sfu : exec_unit, exec_unit
      datapath #SFU_FIFO %sfu to %l1su : exec_unit, exec_unit
      datapath #L1_PORT %l1su to %l1 : exec_unit, memory
      %pt = group @pt_block {kind = "PT_Block"} share() {
        %acc = memory @acc {kind = "PT_ACC", size = 512}
        %unit = exec_unit @pt {
          kind = "PT",
          ktdf_arch.features = {
            ktdf_arch.feature.matrix = {
              rows = 2, lanes = 8, input = f16, accumulator = f32,
              issue_cycles = 1, fill = 2, drain = 2
            }
          }
        }
        yield %unit
      } -> exec_unit
      datapath #PT_FIFO %l1lu to %pt : exec_unit, exec_unit
      datapath #PT_FIFO %pt to %l1su : exec_unit, exec_unit
    }
  }

  // At pre_mapping the SFU takes the unary spyreop intrinsics and realdiv, each
  // mapped onto the instruction of its ktdf_arch.instructions that the lowering
  // emits; toy has no pattern for the other intrinsics, which it refuses.
  patterns ["pre_mapping"] {
    pdl.pattern @exp : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.exp"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "exp"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @gelu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.gelu"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "gelu"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @sigmoid : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.sigmoid"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "sigmoid"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @silu : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.silu"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "silu"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @sqrt : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.sqrt"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "sqrt"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @rsqrt : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.rsqrt"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "rsqrt"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @reciprocal : benefit(1) {
      %type = pdl.type
      %x = pdl.operand : %type
      %root = pdl.operation "spyreop.reciprocal"(%x : !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "reciprocal"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
    pdl.pattern @realdiv : benefit(1) {
      %type = pdl.type
      %a = pdl.operand : %type
      %b = pdl.operand : %type
      %root = pdl.operation "spyreop.realdiv"(%a, %b : !pdl.value, !pdl.value) -> (%type : !pdl.type)
      pdl.rewrite %root {
        %instruction = pdl.attribute = "div"
        pdl.apply_native_rewrite "ktdf_arch.map_to_instruction"(%root, %instruction : !pdl.operation, !pdl.attribute)
      }
    }
  }
  patterns ["pre_scheduling"] {
  }
  patterns ["post_scheduling"] {
  }
  patterns ["post_lowering"] {
  }
}
