// A block relayed over the ring (share-over-ring's basic-runs kernel: 4 runs of 8 tiles
// on spyre, each k tile copied one member on at a time): each ring stop's relayed copy
// waits for the copy of the stage before it on the tile it came from (core 0's from
// core 7's, run 0 relaying onwards) and, after its copy, signals the next tile's stop
// (core 0 to core 1); the next tile's stop tells the first stage, once it is done with
// the buffer, that it may be written again (a later iteration's recv from the next
// tile). The relay's signals are between stops of one kind, so no other engine takes
// part in them.

// RUN: ktc-opt %S/../share-over-ring/basic-runs.mlir --arch spyre -p ktir-to-dfir | filecheck %s

// CHECK-DAG:   %[[R0:.+]] = dfir.unit core 0 : !dfir.unit<"RING">
// CHECK-DAG:   %[[R1:.+]] = dfir.unit core 1 : !dfir.unit<"RING">
// CHECK-DAG:   %[[R7:.+]] = dfir.unit core 7 : !dfir.unit<"RING">
// CHECK-DAG:   %[[NEXT:.+]] = dfir.uniform_map [%[[R0]] -> %[[R1]], {{.+}}] : !dfir.uniform<"RING", !dfir.unit<"RING">>
// CHECK-DAG:   %[[PREVIOUS:.+]] = dfir.uniform_map [%[[R0]] -> %[[R7]], {{.+}}] : !dfir.uniform<"RING", !dfir.unit<"RING">>

// CHECK:       dfir.program "RING"
// CHECK-DAG:     %[[TO:.+]] = dfir.query %[[NEXT]]
// CHECK-DAG:     %[[FROM:.+]] = dfir.query %[[PREVIOUS]]
// CHECK:         scf.for
// The first stage: the owner's copy, freed by the next tile's later stages.
// CHECK:           dfir.sync_recv %[[TO]] id [[FREED:[0-9]+]] : !dfir.unit<"RING">
// CHECK:           dfir.dma
// CHECK:           dfir.sync_send %[[TO]] id [[FILLED:[0-9]+]] : !dfir.unit<"RING">
// The second: waits for the first's copy from the tile before.
// CHECK:           dfir.sync_recv %[[FROM]] id [[FILLED]] : !dfir.unit<"RING">
// CHECK:           dfir.dma
// CHECK:         dfir.sync_send %[[FROM]] id [[FREED]] : !dfir.unit<"RING">
