// An input widened by a whole-tensor arith.extf to the product's type is read
// unwidened, its elements widened in the canonical body, so the product reads the
// loaded tile itself: a cast of a transposed tile (the paged attention's keys,
// 16x128 rows read as 128x16) and a transpose of a cast fold alike, into the map
// (d1, d2) of B stored n x k; a cast other ops read too stays for them. A cast to another type than the output's (f16 to f32
// into an f64 product) is not folded: the body widens to the output's type only.

// RUN: ktc-opt %s --arch toy -p normalize-contractions | filecheck %s

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  // CHECK-LABEL: func.func @cast_of_transpose
  func.func @cast_of_transpose(%a: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %view = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %t = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    // CHECK:      %[[X:.+]] = ktdp.load
    %x = ktdp.load %t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    // CHECK-NOT:  linalg.transpose
    %te = tensor.empty() : tensor<16x16xf16>
    %xt = linalg.transpose ins(%x : tensor<16x16xf16>) outs(%te : tensor<16x16xf16>) permutation = [1, 0]
    %wt = arith.extf %xt : tensor<16x16xf16> to tensor<16x16xf32>
    // CHECK:      %[[W:.+]] = arith.extf %[[X]] : tensor<16x16xf16> to tensor<16x16xf32>
    %w = arith.extf %x : tensor<16x16xf16> to tensor<16x16xf32>
    %init = tensor.splat %zero : tensor<16x16xf32>
    // CHECK:      linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]], {{.*}} ins(%[[X]], %[[X]] : tensor<16x16xf16>, tensor<16x16xf16>)
    // CHECK-NEXT: ^{{.*}}(%[[L:.+]]: f16, %[[R:.+]]: f16, %[[ACC:.+]]: f32):
    // CHECK-NEXT:   %[[LW:.+]] = arith.extf %[[L]] : f16 to f32
    // CHECK-NEXT:   %[[RW:.+]] = arith.extf %[[R]] : f16 to f32
    // CHECK-NEXT:   %[[MUL:.+]] = arith.mulf %[[LW]], %[[RW]] : f32
    %p = linalg.matmul ins(%w, %wt : tensor<16x16xf32>, tensor<16x16xf32>) outs(%init : tensor<16x16xf32>) -> tensor<16x16xf32>
    // CHECK-NOT:  arith.extf %{{.*}} : tensor<16x16xf16> to tensor<16x16xf32>
    // CHECK:      arith.addf %[[W]], %{{.*}} : tensor<16x16xf32>
    %q = arith.addf %w, %p : tensor<16x16xf32>
    %o = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %r = arith.truncf %q : tensor<16x16xf32> to tensor<16x16xf16>
    ktdp.store %r, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }

  // CHECK-LABEL: func.func @transpose_of_cast
  func.func @transpose_of_cast(%a: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %view = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %t = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    // CHECK:      %[[X:.+]] = ktdp.load
    %x = ktdp.load %t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    // CHECK-NOT:  arith.extf
    // CHECK-NOT:  linalg.transpose
    %w = arith.extf %x : tensor<16x16xf16> to tensor<16x16xf32>
    %te = tensor.empty() : tensor<16x16xf32>
    %wt = linalg.transpose ins(%w : tensor<16x16xf32>) outs(%te : tensor<16x16xf32>) permutation = [1, 0]
    %init = tensor.splat %zero : tensor<16x16xf32>
    // CHECK:      linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]], {{.*}} ins(%[[X]], %[[X]] : tensor<16x16xf16>, tensor<16x16xf16>)
    %p = linalg.matmul ins(%w, %wt : tensor<16x16xf32>, tensor<16x16xf32>) outs(%init : tensor<16x16xf32>) -> tensor<16x16xf32>
    %o = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %r = arith.truncf %p : tensor<16x16xf32> to tensor<16x16xf16>
    ktdp.store %r, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }

  // CHECK-LABEL: func.func @other_type
  func.func @other_type(%a: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f64
    %view = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %t = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %x = ktdp.load %t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    // CHECK:      %[[W:.+]] = arith.extf %{{.*}} : tensor<16x16xf16> to tensor<16x16xf32>
    %w = arith.extf %x : tensor<16x16xf16> to tensor<16x16xf32>
    %init = tensor.splat %zero : tensor<16x16xf64>
    // CHECK:      linalg.generic {{.*}} ins(%[[W]], %[[W]] : tensor<16x16xf32>, tensor<16x16xf32>)
    %p = linalg.matmul ins(%w, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%init : tensor<16x16xf64>) -> tensor<16x16xf64>
    %o = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %r = arith.truncf %p : tensor<16x16xf64> to tensor<16x16xf16>
    ktdp.store %r, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }
}
