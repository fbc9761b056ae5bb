// A copy between cores inside a loop (an all-reduce over toy's two cores, one row per
// iteration, the receive buffer reused): besides the forward signal (the copying
// core's ring stop to the receiving core's scratchpad loader once the copy landed),
// the receiving core's loader tells each core copying to it, after its fold read the
// slots of iteration i (i + 1 < trip count), that the slot may be written again; the
// ring stop waits for that before its copy in iteration i >= 1. Core 1 copies to core
// 0 in the first ring pipeline, so core 0's loader hears from core 1's ring stop.

// RUN: ktc-opt %S/../../../e2e/inputs/split_row_sum_loop.mlir --arch toy -p ktir-to-dfir | filecheck %s

// CHECK-DAG:   %[[L1LU0:.+]] = dfir.unit core 0 subcore 0 : !dfir.unit<"L1LU">
// CHECK-DAG:   %[[L1LU1:.+]] = dfir.unit core 1 subcore 0 : !dfir.unit<"L1LU">
// CHECK-DAG:   %[[RING0:.+]] = dfir.unit core 0 : !dfir.unit<"RING">
// CHECK-DAG:   %[[RING1:.+]] = dfir.unit core 1 : !dfir.unit<"RING">
// CHECK-DAG:   %[[FROM:.+]] = dfir.uniform_map [%[[L1LU0]] -> %[[RING1]], %[[L1LU1]] -> %[[RING1]]] : !dfir.uniform<"L1LU", !dfir.unit<"RING">>
// CHECK-DAG:   %[[TO:.+]] = dfir.uniform_map [%[[RING0]] -> %[[L1LU0]], %[[RING1]] -> %[[L1LU0]]] : !dfir.uniform<"RING", !dfir.unit<"L1LU">>

// CHECK:       dfir.program "L1LU"
// CHECK:         %[[SENDER:.+]] = dfir.query %[[FROM]]
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %[[TRIP:.+]] step %[[ONE:[^ ]+]] {
// CHECK:             dfir.sync_recv %[[SENDER]] id [[FILLED:[0-9]+]] : !dfir.unit<"RING">
// CHECK:           dfir.load
// CHECK:           dfir.load
// CHECK:           arith.cmpi slt, %{{.+}}, %[[TRIP]] : index
// CHECK:               dfir.sync_send %[[SENDER]] id [[FREED:[0-9]+]] : !dfir.unit<"RING">
// CHECK-NEXT:        }
// CHECK-NEXT:      }

// CHECK:       dfir.program "RING"
// CHECK:         %[[RECEIVER:.+]] = dfir.query %[[TO]]
// CHECK:         scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[ONE2:[^ ]+]] {
// CHECK:           %[[LATER:.+]] = arith.cmpi sge, %[[J]], %[[ONE2]] : index
// CHECK-NEXT:      scf.if %[[LATER]] {
// CHECK-NEXT:        %[[COPIES:.+]] = arith.cmpi eq,
// CHECK-NEXT:        scf.if %[[COPIES]] {
// CHECK-NEXT:          dfir.sync_recv %[[RECEIVER]] id [[FREED]] : !dfir.unit<"L1LU">
// CHECK:           dfir.dma
// CHECK:           dfir.sync_send %[[RECEIVER]] id [[FILLED]] : !dfir.unit<"L1LU">
