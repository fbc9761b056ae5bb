// A toy-like device whose load unit can splat but whose FIFO into the SIMD engine
// carries only whole 16-byte vectors: no 2-byte scalar can travel on it to be
// splatted. Untimed; only the features matter here.

ktdf_arch.device @vector_fifo attributes {
  mem_space_mapping = #ktdf_arch.map<
    #ktdp.memory_space<global> = "DDR",
    #ktdp.memory_space<ct_local> = "L1"
  >
} {
  %ddr = memory @ddr {kind = "DDR", size = 1048576}
  group @core {kind = "core"} share(%ddr) {
    %l1 = memory @l1 {kind = "L1", size = 65536}
    %mnilu = exec_unit @mnilu {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = {
      word_size = #ktdf_arch.map<"DDR" = 16, "L1" = 16>,
      access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}]>}}}
    %mnisu = exec_unit @mnisu {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = {
      word_size = #ktdf_arch.map<"DDR" = 16, "L1" = 16>}}}
    datapath {ktdf_arch.transfer_granularity = array<i64: 16>} %ddr to %mnilu : memory, exec_unit
    datapath %mnilu to %l1 : exec_unit, memory
    datapath %l1 to %mnisu : memory, exec_unit
    datapath {ktdf_arch.transfer_granularity = array<i64: 16>} %mnisu to %ddr : exec_unit, memory
    %sfu = exec_unit @sfu {kind = "SFU", ktdf_arch.features = {
      ktdf_arch.feature.compute,
      ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
    %l1lu = exec_unit @l1lu {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {
      access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 16, align_in_words = 16}, {size_in_words = 2, align_in_words = 2}]>},
      ktdf_arch.feature.simd = {splat}}}
    %l1su = exec_unit @l1su {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {
      access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 16, align_in_words = 16}]>}}}
    datapath %l1 to %l1lu : memory, exec_unit
    datapath {ktdf_arch.transfer_granularity = array<i64: 16>} %l1lu to %sfu : exec_unit, exec_unit
    datapath {ktdf_arch.transfer_granularity = array<i64: 16>} %sfu to %l1su : exec_unit, exec_unit
    datapath %l1su to %l1 : exec_unit, memory
  }
}
