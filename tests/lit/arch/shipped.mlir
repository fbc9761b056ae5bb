// The shipped device files read back what they print, in custom and generic form,
// and their generic form goes through real MLIR and back unchanged: the scale and
// timing attributes (count, interconnect, bandwidth, transfer_latency,
// port_bandwidth, issue_cycles, clock_mhz, example_values), the compute unit's
// instructions, the matrix unit and its FIFOs and the pre_mapping patterns that lower
// the intrinsics survive every trip.

// RUN: ktc-opt %root/arch/spyre.mlir | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %root/arch/spyre.mlir | ktc-opt | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %root/arch/spyre.mlir --print-op-generic | ktc-opt | filecheck %s --check-prefix=SPYRE
// RUN: %if mlir %{ ktc-opt %root/arch/spyre.mlir --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s --check-prefix=SPYRE %}
// RUN: ktc-opt %root/arch/toy.mlir | ktc-opt | filecheck %s --check-prefix=TOY
// RUN: %if mlir %{ ktc-opt %root/arch/toy.mlir --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s --check-prefix=TOY %}

// SPYRE:      ktdf_arch.device @spyre attributes {ktdf_arch.clock_mhz = 1000 : i64, ktdf_arch.example_values = ["clock_mhz"], mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} {
// SPYRE-NEXT:   [[DDR:%[^ ]+]] = {{.*}}memory @ddr {kind = "DDR", ktdf_arch.example_values = ["port_bandwidth"], ktdf_arch.port_bandwidth = 128 : i64, size = 137438953472 : i64}
// SPYRE-NEXT:   {{.*}}group @core {kind = "core", ktdf_arch.count = 32 : i64, ktdf_arch.example_values = ["interconnect.latency"], ktdf_arch.interconnect = {bandwidth = 128 : i64, latency = 8 : i64, stop = @ring, topology = "ring"}} share([[DDR]]) {
// SPYRE-NEXT:     [[L1:%[^ ]+]] = {{.*}}memory @l1 {kind = "L1", ktdf_arch.example_values = ["port_bandwidth"], ktdf_arch.port_bandwidth = 512 : i64, size = 2097152 : i64}
// SPYRE-NEXT:     [[LU:%[^ ]+]] = {{.*}}exec_unit @mnilu {kind = "MNILU", {{.*}}word_size = #ktdf_arch.map<"DDR" = 128 : i64, "L1" = 128 : i64>}}, ktdf_arch.outstanding = 4 : i64, ktdf_arch.scalar_cycles = {control = 1 : i64, scalar = 1 : i64}}
// SPYRE-NEXT:     [[SU:%[^ ]+]] = {{.*}}exec_unit @mnisu {kind = "MNISU", {{.*}}}
// SPYRE-NEXT:     {{.*}}datapath {ktdf_arch.bandwidth = 128 : i64, {{.*}}, ktdf_arch.transfer_granularity = array<i64: 128>, ktdf_arch.transfer_latency = 100 : i64} [[DDR]] to [[LU]] : memory, exec_unit
// SPYRE-NEXT:     {{.*}}datapath {{.*}} [[LU]] to [[L1]] : exec_unit, memory
// SPYRE-NEXT:     {{.*}}datapath {{.*}} [[L1]] to [[SU]] : memory, exec_unit
// SPYRE-NEXT:     {{.*}}datapath {{.*}}ktdf_arch.transfer_latency = 100 : i64} [[SU]] to [[DDR]] : exec_unit, memory
// SPYRE-NEXT:     [[RING:%[^ ]+]] = {{.*}}exec_unit @ring {kind = "RING", {{.*}}}
// SPYRE-NEXT:     {{.*}}datapath {{.*}} [[L1]] to [[RING]] : memory, exec_unit
// SPYRE-NEXT:     {{.*}}datapath {{.*}} [[RING]] to [[L1]] : exec_unit, memory
// SPYRE-NEXT:     {{.*}}group @subcore {kind = "subcore", ktdf_arch.count = 2 : i64} share([[L1]]) {
// SPYRE-NEXT:       [[SFU:%[^ ]+]] = {{.*}}group @sfu_block {kind = "SFU_Block"} share() {
// SPYRE-NEXT:         {{.*}}memory @reg {kind = "SFU_REG", ktdf_arch.example_values = ["size"], size = 2048 : i64}
// SPYRE-NEXT:         [[UNIT:%[^ ]+]] = {{.*}}exec_unit @sfu {kind = "SFU", {{.*}}lanes = #ktdf_arch.map<f16 = 64 : i64, !spyreop.df16 = 64 : i64, f32 = 32 : i64>}}, ktdf_arch.instructions = ["add", {{.*}}, "sigmoid", {{.*}}, "softplus", {{.*}}, "cmp_le"], ktdf_arch.issue_cycles = {plain = 1 : i64, reduction_step = 1 : i64, transcendental = 4 : i64}, ktdf_arch.scalar_cycles = {control = 1 : i64, scalar = 1 : i64}}
// SPYRE-NEXT:         {{.*}}yield [[UNIT]]
// SPYRE-NEXT:       } -> exec_unit
// SPYRE-NEXT:       [[L1LU:%[^ ]+]] = {{.*}}exec_unit @l1lu {kind = "L1LU", {{.*}}ktdf_arch.feature.simd = {splat, zero_pad}}, ktdf_arch.scalar_cycles = {control = 1 : i64, scalar = 1 : i64}}
// SPYRE-NEXT:       [[L1SU:%[^ ]+]] = {{.*}}exec_unit @l1su {kind = "L1SU", {{.*}}}
// SPYRE-NEXT:       {{.*}}datapath {{.*}}ktdf_arch.feature.queue = {depth = 16 : i64, ordered, size = 128 : i64}}{{.*}} [[L1]] to [[L1LU]] : memory, exec_unit
// SPYRE-NEXT:       {{.*}}datapath {kind = "fifo", {{.*}}ktdf_arch.transfer_granularity = array<i64: 128, 2>, ktdf_arch.transfer_latency = 1 : i64} [[L1LU]] to [[SFU]] : exec_unit, exec_unit
// SPYRE-NEXT:       {{.*}}datapath {kind = "fifo", {{.*}} [[SFU]] to [[L1SU]] : exec_unit, exec_unit
// SPYRE-NEXT:       {{.*}}datapath {{.*}} [[L1SU]] to [[L1]] : exec_unit, memory
// SPYRE-NEXT:       [[PT:%[^ ]+]] = {{.*}}group @pt_block {kind = "PT_Block"} share() {
// SPYRE-NEXT:         {{.*}}memory @acc {kind = "PT_ACC", ktdf_arch.example_values = ["size"], size = 65536 : i64}
// SPYRE-NEXT:         [[PTU:%[^ ]+]] = {{.*}}exec_unit @pt {kind = "PT", ktdf_arch.example_values = ["matrix.fill", "matrix.drain", "matrix.transposed_rhs", "scalar_cycles"], ktdf_arch.features = {ktdf_arch.feature.matrix = {accumulator = f32, drain = 8 : i64, fill = 8 : i64, input = f16, issue_cycles = 1 : i64, lanes = 64 : i64, rows = 8 : i64, transposed_rhs}}, ktdf_arch.scalar_cycles = {control = 1 : i64, scalar = 1 : i64}}
// SPYRE-NEXT:         {{.*}}yield [[PTU]]
// SPYRE-NEXT:       } -> exec_unit
// SPYRE-NEXT:       {{.*}}datapath {kind = "fifo", {{.*}}ktdf_arch.feature.queue = {depth = 128 : i64, ordered, size = 128 : i64}}{{.*}} [[L1LU]] to [[PT]] : exec_unit, exec_unit
// SPYRE-NEXT:       {{.*}}datapath {kind = "fifo", {{.*}} [[PT]] to [[L1SU]] : exec_unit, exec_unit
// SPYRE-NEXT:     }
// SPYRE-NEXT:   }
// SPYRE-NEXT:   {{.*}}patterns ["pre_mapping"] {
// SPYRE-NEXT:     pdl.pattern @exp : benefit(1) {
// SPYRE:            %{{.*}} = {{(pdl.)?}}operation "spyreop.softplus"{{ ?}}(%{{.*}} : !pdl.value) {"beta" = %{{.*}}, "threshold" = %{{.*}}} -> (%{{.*}} : !pdl.type)
// SPYRE:            {{(pdl.)?}}apply_native_rewrite "ktdf_arch.map_to_instruction"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
// SPYRE:          pdl.pattern @idx32toaddr_constants : benefit(1) {
// SPYRE:        {{^    \}$}}
// SPYRE-NEXT:   {{.*}}patterns ["pre_scheduling"] {
// SPYRE-NEXT:   }
// SPYRE-NEXT:   {{.*}}patterns ["post_scheduling"] {
// SPYRE-NEXT:   }
// SPYRE-NEXT:   {{.*}}patterns ["post_lowering"] {
// SPYRE-NEXT:   }
// SPYRE-NEXT: }

// TOY:      ktdf_arch.device @toy attributes {ktdf_arch.clock_mhz = 100 : i64, mem_space_mapping = {{.*}}} {
// TOY-NEXT:   [[DDR:%[^ ]+]] = {{.*}}memory @ddr {kind = "DDR", ktdf_arch.port_bandwidth = 16 : i64, size = 1048576 : i64}
// TOY-NEXT:   {{.*}}group @core {kind = "core", ktdf_arch.count = 2 : i64, ktdf_arch.interconnect = {bandwidth = 8 : i64, latency = 2 : i64, stop = @ring, topology = "ring"}} share([[DDR]]) {
// TOY-NEXT:     {{.*}}memory @l1 {kind = "L1", size = 65536 : i64}
// TOY:          {{.*}}group @subcore {kind = "subcore"} share(
// TOY:            {{.*}}exec_unit @sfu {kind = "SFU", {{.*}}lanes = #ktdf_arch.map<f16 = 8 : i64, !spyreop.df16 = 8 : i64, f32 = 4 : i64>}}, ktdf_arch.instructions = ["add", {{.*}}, "silu"], ktdf_arch.issue_cycles = {plain = 1 : i64, reduction_step = 1 : i64, transcendental = 4 : i64}}
// TOY:          {{.*}}datapath {kind = "fifo", {{.*}}ktdf_arch.feature.queue = {depth = 2 : i64, ordered, size = 16 : i64}}
// TOY:          {{.*}}memory @acc {kind = "PT_ACC", size = 512 : i64}
// TOY-NEXT:     {{.*}}exec_unit @pt {kind = "PT", ktdf_arch.features = {ktdf_arch.feature.matrix = {accumulator = f32, drain = 2 : i64, fill = 2 : i64, input = f16, issue_cycles = 1 : i64, lanes = 8 : i64, rows = 2 : i64}}}
