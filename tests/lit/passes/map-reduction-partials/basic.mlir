// row_sum's vector partial moves into the SFU's own memory (SFU_REG, the arch
// file's local memory of the compute engine): filled with 0 in place, accumulated
// in place from FIFO slices read as buffers, reduced into a second SFU_REG buffer
// that the FIFO write takes; no tensor iter_args remain.

// RUN: ktc-opt %root/examples/row_sum.mlir --arch toy -p ktir-to-schedule,reduction-loop-exposure,map-reduction-partials | filecheck %s

// CHECK:      %[[PRIVATE:.*]]:11 = ktdf.private
// CHECK-DAG:  memref.alloc() : memref<1x4xf32, "SFU_REG">
// CHECK-DAG:  memref.alloc() : memref<1xf32, "SFU_REG">
// CHECK:      linalg.generic {{.*}} outs(%[[PRIVATE]]#10 : memref<1xf32, "SFU_REG">)
// CHECK:      linalg.generic {{.*}} outs(%[[PRIVATE]]#9 : memref<1x4xf32, "SFU_REG">)
// CHECK:      scf.for
// CHECK-NOT:  iter_args
// CHECK-NEXT:   %[[SLICE:.*]] = ktdf.read_from_fifo {{.*}} -> memref<1x4xf32, "SFU_REG">
// CHECK-NEXT:   linalg.generic {{.*}} ins(%[[SLICE]] : memref<1x4xf32, "SFU_REG">) outs(%[[PRIVATE]]#9 : memref<1x4xf32, "SFU_REG">)
// CHECK:      linalg.generic {{.*}} ins(%[[PRIVATE]]#9 : memref<1x4xf32, "SFU_REG">) outs(%[[PRIVATE]]#10 : memref<1xf32, "SFU_REG">)
// CHECK:      ktdf.write_to_fifo %[[PRIVATE]]#10, {{.*}} : memref<1xf32, "SFU_REG">
