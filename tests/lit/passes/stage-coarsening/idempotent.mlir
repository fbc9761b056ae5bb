// Coarsening twice is coarsening once: a pipeline that holds a pipeline, or sits
// in a stage, is never coarsened again, and the orchestrator has no loop left.

// RUN: ktc-opt %S/basic.mlir -p 'ktir-to-schedule,stage-coarsening' --arch toy > %t.once
// RUN: ktc-opt %t.once -p stage-coarsening > %t.twice
// RUN: diff %t.once %t.twice
// RUN: filecheck %s < %t.twice

// CHECK-COUNT-2: ktdf.pipeline {
// CHECK-NOT:     ktdf.pipeline {
