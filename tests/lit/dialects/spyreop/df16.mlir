// !spyreop.df16 is an element type like f16: tensors, memrefs and vectors of it parse,
// print and survive the generic form, and memref ops accept it. (Real MLIR takes
// tensors of an unregistered type but not memrefs or vectors of one, so this file
// stays out of the mlir-opt cross-check.)

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s

// CHECK-LABEL: @containers
// CHECK-SAME: (%{{.*}}: tensor<4x!spyreop.df16>, %{{.*}}: memref<2x64x!spyreop.df16>, %{{.*}}: vector<64x!spyreop.df16>, %{{.*}}: memref<8x!spyreop.fp16_fused>)
func.func @containers(%t: tensor<4x!spyreop.df16>, %m: memref<2x64x!spyreop.df16>, %v: vector<64x!spyreop.df16>, %f: memref<8x!spyreop.fp16_fused>) {
  %c0 = arith.constant 0 : index
  // CHECK: %[[X:[^ ]+]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x64x!spyreop.df16>
  %x = memref.load %m[%c0, %c0] : memref<2x64x!spyreop.df16>
  // CHECK-NEXT: %[[Y:[^ ]+]] = spyreop.sigmoid %[[X]] : !spyreop.df16
  %y = spyreop.sigmoid %x : !spyreop.df16
  // CHECK-NEXT: memref.store %[[Y]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x64x!spyreop.df16>
  memref.store %y, %m[%c0, %c0] : memref<2x64x!spyreop.df16>
  // CHECK-NEXT: memref.alloc() : memref<16x!spyreop.df16_fused>
  %a = memref.alloc() : memref<16x!spyreop.df16_fused>
  // CHECK-NEXT: tensor.empty() : tensor<2x!spyreop.fp32_fused>
  %e = tensor.empty() : tensor<2x!spyreop.fp32_fused>
  func.return
}
