// Upstream MLIR accepts the split module in generic form (the func dialect is
// registered there, so the calls, the private declarations and the nested symbol
// tables are verified for real), and what it prints back reads into ktc as the
// same structure; a second trip through MLIR changes nothing.

// REQUIRES: mlir
// RUN: ktc-opt %S/idempotent.mlir -p compute-group-extraction --arch toy --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.once
// RUN: ktc-opt %t.once | filecheck %s
// RUN: ktc-opt %t.once --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | diff %t.once -

// CHECK:      module {
// CHECK-NEXT:   ktdf_arch.device @toy
// CHECK-NEXT:   module {
// CHECK-NEXT:     func.func @two_groups(%[[X:.*]]: index, %[[Y:.*]]: index) attributes {grid = [2]} {
// CHECK:            scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:         func.call @local_schedule_0(%[[X]], %[[Y]], %[[I]]) : (index, index, index) -> ()
// CHECK-NEXT:       }
// CHECK-NEXT:       call @local_schedule_1(%[[X]], %[[Y]]) : (index, index) -> ()
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:     func.func private @local_schedule_0(index, index, index) -> ()
// CHECK-NEXT:     func.func private @local_schedule_1(index, index) -> ()
// CHECK-NEXT:   }
// CHECK-NEXT:   module @local_schedule_0 {
// CHECK-NEXT:     func.func @local_schedule_0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index) attributes {grid = [2]} {
// CHECK:            ktdp.store
// CHECK:        module @local_schedule_1 {
// CHECK-NEXT:     func.func @local_schedule_1(%{{.*}}: index, %{{.*}}: index) attributes {grid = [2]} {
// CHECK:            ktdp.store
