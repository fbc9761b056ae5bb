// A copy between cores (inter-tile-reduce-lowering's ring stage) on line4, whose four
// cores are two groups of two (tile 1 copies to tile 0, tile 3 to tile 2): the stop
// engine's program runs the DMA only on the copying cores, with its destination view
// on the consumer core's scratchpad unit (a per-core map: cores 1 and 3 write to the
// scratchpads of cores 0 and 2), and signals the consumer core's vector unit, which
// waits for it only on the consuming cores.

// RUN: ktc-opt %S/../../../e2e/inputs/split_row_sum_reduce.mlir --arch %S/../../arch/Inputs/line4.mlir -p ktir-to-dfir | filecheck %s

// CHECK-DAG:   %[[SPM0:.+]] = dfir.unit core 0 : !dfir.unit<"SPM">
// CHECK-DAG:   %[[SPM2:.+]] = dfir.unit core 2 : !dfir.unit<"SPM">
// CHECK-DAG:   %[[VPU0:.+]] = dfir.unit core 0 : !dfir.unit<"VPU">
// CHECK-DAG:   %[[VPU2:.+]] = dfir.unit core 2 : !dfir.unit<"VPU">
// CHECK-DAG:   %[[NOC0:.+]] = dfir.unit core 0 : !dfir.unit<"NOC">
// CHECK-DAG:   %[[NOC1:.+]] = dfir.unit core 1 : !dfir.unit<"NOC">
// CHECK-DAG:   %[[NOC3:.+]] = dfir.unit core 3 : !dfir.unit<"NOC">
// The consumers' vector units hear from core 1 and core 3:
// CHECK-DAG:   %[[FROM:.+]] = dfir.uniform_map [%{{.+}} -> %[[NOC1]], %{{.+}} -> %[[NOC1]], %{{.+}} -> %[[NOC3]], %{{.+}} -> %[[NOC3]]] : !dfir.uniform<"VPU", !dfir.unit<"NOC">>
// The copying cores write to the scratchpads of cores 0 and 2:
// CHECK-DAG:   %[[TO:.+]] = dfir.uniform_map [%{{.+}} -> %[[SPM0]], %{{.+}} -> %[[SPM0]], %{{.+}} -> %[[SPM0]], %{{.+}} -> %[[SPM2]]] : !dfir.uniform<"NOC", !dfir.unit<"SPM">>
// CHECK-DAG:   %[[TELL:.+]] = dfir.uniform_map [%{{.+}} -> %[[VPU0]], %{{.+}} -> %[[VPU0]], %{{.+}} -> %[[VPU0]], %{{.+}} -> %[[VPU2]]] : !dfir.uniform<"NOC", !dfir.unit<"VPU">>

// CHECK:       dfir.program "VPU"
// CHECK:         %[[PEER:.+]] = dfir.query %[[FROM]]
// CHECK:         dfir.sync_recv %[[PEER]] id [[ID:[0-9]+]] : !dfir.unit<"NOC">

// The per-core units of the copy and its signal are queried where they are used:
// CHECK:       dfir.program "NOC"
// CHECK:         scf.if
// CHECK:           %[[REMOTE:.+]] = dfir.query %[[TO]]
// CHECK:           %[[DEST:.+]] = dfir.view %[[REMOTE]][%{{.+}}] : !dfir.unit<"SPM"> -> memref<2xf32>
// CHECK-NEXT:      dfir.dma %{{.+}} to %[[DEST]] : memref<2xf32>, memref<2xf32>
// CHECK:         scf.if
// CHECK-NEXT:      %[[CONSUMER:.+]] = dfir.query %[[TELL]]
// CHECK-NEXT:      dfir.sync_send %[[CONSUMER]] id [[ID]] : !dfir.unit<"VPU">
