// Every ktdf_arch op, type and attribute reads back what it prints, in custom and
// generic form, and its generic form goes through real MLIR and back unchanged.
// A #ALIAS dictionary stands in for an attribute dictionary and prints inline.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s %}

#CORE = {kind = "core"}
#FIFO = {
  ktdf_arch.transfer_granularity = array<i64: 16, 2>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 64, ordered}}
}

// CHECK-LABEL: @toy attributes {mem_space_mapping = #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">} {
// CHECK-NEXT:    %[[DDR:[^ ]+]] = {{.*}}memory @ddr {kind = "DDR", size = 65536 : i64}
// CHECK-NEXT:    %[[CORE:[^ :]+]]:2 = {{.*}}group @core0 {kind = "core"} share(%[[DDR]]) {
// CHECK-NEXT:      %[[L1:[^ ]+]] = {{.*}}memory {kind = "L1", ktdf_arch.overlaps = [], size = 1024 : i64}
// CHECK-NEXT:      %[[DMA:[^ ]+]] = {{.*}}exec_unit @dma {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"DDR" = [{align_in_words = 1 : i64, size_in_words = 1 : i64}]>, word_size = #ktdf_arch.map<"DDR" = 16 : i64, "L1" = 16 : i64>}, ktdf_arch.feature.store}}
// CHECK-NEXT:      {{.*}}datapath @in {ktdf_arch.bandwidth = 32 : i64} %[[DDR]] to %[[DMA]] : memory, exec_unit
// CHECK-NEXT:      {{.*}}datapath %[[DMA]] to %[[L1]] : exec_unit, memory
// CHECK-NEXT:      %[[SUB:[^ ]+]] = {{.*}}group share(%[[L1]]) {
// CHECK-NEXT:        %[[REG:[^ ]+]] = {{.*}}memory {kind = "REG", size = 64 : i64}
// CHECK-NEXT:        %[[SIMD:[^ ]+]] = {{.*}}exec_unit {kind = "SIMD", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8 : i64, f32 = 4 : i64>, splat, zero_pad}}}
// CHECK-NEXT:        {{.*}}datapath {kind = "fifo", ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4 : i64, ordered, size = 64 : i64}}, ktdf_arch.transfer_granularity = array<i64: 16, 2>} %[[L1]] to %[[SIMD]] : memory, exec_unit
// CHECK-NEXT:        {{.*}}yield %[[SIMD]]
// CHECK-NEXT:      } -> exec_unit
// CHECK-NEXT:      {{.*}}yield %[[DMA]], %[[SUB]]
// CHECK-NEXT:    } -> exec_unit, exec_unit
// CHECK-NEXT:    %[[RING:[^ :]+]]:2 = {{.*}}switch [2] @ring {connectivity = dense<{{\[\[}}false, true], [true, false]]> : tensor<2x2xi1>}
// CHECK-NEXT:    {{.*}}datapath %[[CORE]]#1 to %[[RING]]#0 : exec_unit, port
// CHECK-NEXT:    {{.*}}datapath %[[RING]]#1 to %[[CORE]]#0 : port, exec_unit
// CHECK-NEXT:    {{.*}}group {kind = "empty"} share() {
// CHECK-NEXT:    }
// CHECK-NEXT:    {{.*}}patterns ["pre_scheduling", "post_lowering"] {
// CHECK-NEXT:      pdl.pattern @erase_nop : benefit(1) {
// CHECK-NEXT:        %[[ROOT:[^ ]+]] = {{.*}}operation "arith.addi"
// CHECK-NEXT:        {{.*}}rewrite %[[ROOT]] {
// CHECK-NEXT:          {{.*}}erase %[[ROOT]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    {{.*}}patterns {
// CHECK-NEXT:    }
// CHECK-NEXT:  }
ktdf_arch.device @toy attributes {mem_space_mapping = #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">} {
  %ddr = memory @ddr {kind = "DDR", size = 65536}
  %units:2 = group @core0 #CORE share(%ddr) {
    %l1 = memory {kind = "L1", size = 1024, ktdf_arch.overlaps = []}
    %dma = exec_unit @dma {
      kind = "DMA",
      ktdf_arch.features = {
        ktdf_arch.feature.load = {
          word_size = #ktdf_arch.map<"DDR" = 16, "L1" = 16>,
          access_granularity = #ktdf_arch.map<"DDR" = [{size_in_words = 1, align_in_words = 1}]>
        },
        ktdf_arch.feature.store
      }
    }
    datapath @in {ktdf_arch.bandwidth = 32} %ddr to %dma : memory, exec_unit
    datapath %dma to %l1 : exec_unit, memory
    %sub = group share(%l1) {
      %reg = memory {kind = "REG", size = 64}
      %simd = exec_unit {
        kind = "SIMD",
        ktdf_arch.features = {
          ktdf_arch.feature.compute,
          ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, f32 = 4>, splat, zero_pad}
        }
      }
      datapath {kind = "fifo", ktdf_arch.transfer_granularity = array<i64: 16, 2>, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, size = 64, ordered}}} %l1 to %simd : memory, exec_unit
      yield %simd
    } -> exec_unit
    yield %dma, %sub
  } -> exec_unit, exec_unit
  %ring:2 = switch [2] @ring {connectivity = dense<[[false, true], [true, false]]> : tensor<2x2xi1>}
  datapath %units#1 to %ring#0 : exec_unit, port
  datapath %ring#1 to %units#0 : port, exec_unit
  group {kind = "empty"} share() {
  }
  patterns ["pre_scheduling", "post_lowering"] {
    pdl.pattern @erase_nop : benefit(1) {
      %root = pdl.operation "arith.addi"
      pdl.rewrite %root {
        pdl.erase %root
      }
    }
  }
  patterns {
  }
}

// An importing declaration: its attributes apply over the imported device's.

// CHECK:       @spyre_like attributes {mem_space_mapping = #ktdf_arch.map<"global" = "DDR">} import("devices/spyre_like.mlir"){{$}}
ktdf_arch.device @spyre_like attributes {mem_space_mapping = #ktdf_arch.map<"global" = "DDR">} import("devices/spyre_like.mlir")

// CHECK:       @bare import("bare.mlir"){{$}}
ktdf_arch.device @bare import("bare.mlir")

// Map keys and values are any attributes; the map may be empty.

// CHECK-LABEL: func.func @kernel
// CHECK-SAME:    ktdf_arch.maps_to = @toy
// CHECK-SAME:    lanes = #ktdf_arch.map<f16 = 64 : i64, bf16 = 32 : i64>
// CHECK-SAME:    none = #ktdf_arch.map<>
// CHECK-SAME:    spaces = #ktdf_arch.map<"L1" = ["L1", 2 : i32], 7 : i32 = "seven">
func.func @kernel() attributes {
  ktdf_arch.maps_to = @toy,
  lanes = #ktdf_arch.map<f16 = 64, bf16 = 32>,
  none = #ktdf_arch.map<>,
  spaces = #ktdf_arch.map<"L1" = ["L1", 2 : i32], 7 : i32 = "seven">
} {
  func.return
}

// The generic form: resources are unregistered-looking ops whose attribute
// dictionary holds what the custom form writes in braces; @id, @name and import()
// are properties; a group's shared memories are its body's arguments.

// GENERIC:      "ktdf_arch.device"() <{sym_name = "toy"}> ({
// GENERIC-NEXT:   %{{.*}} = "ktdf_arch.memory"() <{id = "ddr"}> {kind = "DDR", size = 65536 : i64} : () -> !ktdf_arch.memory
// GENERIC-NEXT:   %{{.*}}:2 = "ktdf_arch.group"(%{{.*}}) <{id = "core0"}> ({
// GENERIC-NEXT:   ^bb0(%{{.*}}: !ktdf_arch.memory):
// GENERIC:        "ktdf_arch.datapath"(%{{.*}}, %{{.*}}) <{id = "in"}> {ktdf_arch.bandwidth = 32 : i64} : (!ktdf_arch.memory, !ktdf_arch.exec_unit) -> ()
// GENERIC:        "ktdf_arch.yield"(%{{.*}}, %{{.*}}) : (!ktdf_arch.exec_unit, !ktdf_arch.exec_unit) -> ()
// GENERIC-NEXT:   }) {kind = "core"} : (!ktdf_arch.memory) -> (!ktdf_arch.exec_unit, !ktdf_arch.exec_unit)
// GENERIC-NEXT:   %{{.*}}:2 = "ktdf_arch.switch"() <{id = "ring"}> {connectivity = {{.*}}} : () -> (!ktdf_arch.port, !ktdf_arch.port)
// GENERIC:        "ktdf_arch.yield"() : () -> ()
// GENERIC:        "ktdf_arch.patterns"() <{groups = ["pre_scheduling", "post_lowering"]}> ({
// GENERIC:        "ktdf_arch.patterns"() <{groups = []}> ({
// GENERIC:      "ktdf_arch.device"() <{import_path = "devices/spyre_like.mlir", sym_name = "spyre_like"}> ({
// GENERIC-NEXT: }) {mem_space_mapping = #ktdf_arch.map<"global" = "DDR">} : () -> ()
