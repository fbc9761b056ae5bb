// Every kernel of examples/ is one compute group: the elementwise, broadcast and
// reduction kernels each store only values computed from all of their loads, so
// each becomes one program, called from the row loop where the kernel has one.

// RUN: ktc-opt %root/examples/add.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefixes=CHECK,LOOP
// RUN: ktc-opt %root/examples/softmax.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefixes=CHECK,LOOP
// RUN: ktc-opt %root/examples/rmsnorm.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefixes=CHECK,LOOP
// RUN: ktc-opt %root/examples/layernorm.mlir -p compute-group-extraction --arch spyre | filecheck %s --check-prefixes=CHECK,LOOP
// RUN: ktc-opt %root/examples/broadcast_add.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefixes=CHECK,FLAT
// RUN: ktc-opt %root/examples/silu_mul.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefixes=CHECK,FLAT
// RUN: ktc-opt %root/examples/row_sum.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefixes=CHECK,FLAT

// LOOP:        scf.for %i = {{.*}} {
// LOOP-NEXT:     func.call @local_schedule_0({{.*}}%i) : ({{.*}}index) -> ()
// LOOP-NEXT:   }
// FLAT:        func.func @{{.*}} {
// FLAT-NEXT:     call @local_schedule_0(
// FLAT-NEXT:     return
// CHECK:       func.func private @local_schedule_0(
// CHECK:       module @local_schedule_0 {
// CHECK-NOT:   ktdp.store
// CHECK:         ktdp.load
// CHECK:         ktdp.store
// CHECK-NOT:   module @local_schedule_1
