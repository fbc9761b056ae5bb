// Reductions whose rows are also used elementwise (softmax: the row is needed whole
// after its max and sum) and kernels without reductions are left unchanged, even
// when num-chunks asks for chunks.

// RUN: ktc-opt %root/examples/softmax.mlir --arch toy -p ktir-to-schedule,stage-coarsening > %t.softmax
// RUN: ktc-opt %t.softmax -p 'reduction-dim-chunking{num-chunks=2}' | diff %t.softmax -
// RUN: ktc-opt %root/examples/add.mlir --arch toy -p ktir-to-schedule,stage-coarsening > %t.add
// RUN: ktc-opt %t.add -p 'reduction-dim-chunking{num-chunks=2}' | diff %t.add -
// RUN: filecheck %s < %t.softmax

// CHECK-NOT: reduction_loop
