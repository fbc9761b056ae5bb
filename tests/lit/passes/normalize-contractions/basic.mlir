// Every contraction becomes one canonical linalg.generic over loops (m, n, k) whose
// body multiplies the two input elements and adds the product to the output's: a
// linalg.matmul (into a fill of zero), a matmul reading a linalg.transpose (folded
// into the map of its input: B read as n x k), and a matmul into an empty tensor
// added to a loop's accumulator (the sum disappears: the contraction accumulates
// into the iteration argument, as in the corpus matmul). A sum whose other operand
// is made after the product (a bias broadcast written after the matmul) stays a sum:
// the product cannot accumulate into what does not exist yet. A batched matmul keeps
// its batch loop first, and its empty accumulator (zeros, as the reference reads it)
// is filled with zeros, the value the reduction's schedule starts from. Two products
// from one fill (@products, @shared_fill) get a fill each.

// RUN: ktc-opt %s --arch toy -p normalize-contractions | filecheck %s

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[BA:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BB:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[BC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  // CHECK-LABEL: func.func @products
  func.func @products(%a: index, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %view = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %out = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %t = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    // CHECK:      %[[X:.+]] = ktdp.load
    %x = ktdp.load %t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<16x16xf16>
    // CHECK:      linalg.fill
    // CHECK-NEXT: %[[INIT:.+]] = linalg.fill
    %init = linalg.fill ins(%zero : f16) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
    // CHECK-NEXT: %[[P:.+]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[X]] : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[INIT]] : tensor<16x16xf16>) {
    // CHECK-NEXT: ^{{.*}}(%[[L:.+]]: f16, %[[R:.+]]: f16, %[[ACC:.+]]: f16):
    // CHECK-NEXT:   %[[MUL:.+]] = arith.mulf %[[L]], %[[R]] : f16
    // CHECK-NEXT:   %[[ADD:.+]] = arith.addf %[[ACC]], %[[MUL]] : f16
    // CHECK-NEXT:   linalg.yield %[[ADD]] : f16
    %p = linalg.matmul ins(%x, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%init : tensor<16x16xf16>) -> tensor<16x16xf16>
    // CHECK-NOT:  linalg.transpose
    // CHECK:      linalg.generic {indexing_maps = [#[[A]], #[[BT]], #[[C]]], {{.*}} ins(%[[P]], %[[X]] :
    %te = tensor.empty() : tensor<16x16xf16>
    %xt = linalg.transpose ins(%x : tensor<16x16xf16>) outs(%te : tensor<16x16xf16>) permutation = [1, 0]
    %q = linalg.matmul ins(%p, %xt : tensor<16x16xf16>, tensor<16x16xf16>) outs(%init : tensor<16x16xf16>) -> tensor<16x16xf16>
    ktdp.store %q, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }

  // CHECK-LABEL: func.func @accumulated
  func.func @accumulated(%a: index, %c: index, %n: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %view = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %out = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %zeros = arith.constant dense<0.0> : tensor<16x16xf16>
    // CHECK:      scf.for {{.*}} iter_args(%[[ITER:.+]] = %{{.*}})
    %sum = scf.for %k = %c0 to %n step %c16 iter_args(%acc = %zeros) -> (tensor<16x16xf16>) {
      %t = ktdp.construct_access_tile %view[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
      %x = ktdp.load %t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
      %e = tensor.empty() : tensor<16x16xf16>
      // CHECK-NOT:  tensor.empty
      // CHECK:      %[[NEXT:.+]] = linalg.generic {{.*}} outs(%[[ITER]] : tensor<16x16xf16>)
      // CHECK-NOT:  arith.addf %[[ITER]]
      // CHECK:      scf.yield %[[NEXT]]
      %p = linalg.matmul ins(%x, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
      %next = arith.addf %acc, %p : tensor<16x16xf16>
      scf.yield %next : tensor<16x16xf16>
    }
    %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    ktdp.store %sum, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }

  // CHECK-LABEL: func.func @batched
  func.func @batched(%x: tensor<2x16x16xf16>, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %e = tensor.empty() : tensor<2x16x16xf16>
    // CHECK:      %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
    // CHECK-NEXT: %[[FILLED:.+]] = linalg.fill ins(%[[ZERO]] : f16) outs(%{{.+}} : tensor<2x16x16xf16>)
    // CHECK-NEXT: linalg.generic {indexing_maps = [#[[BA]], #[[BB]], #[[BC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%[[FILLED]] : tensor<2x16x16xf16>)
    %p = linalg.batch_matmul ins(%x, %x : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%e : tensor<2x16x16xf16>) -> tensor<2x16x16xf16>
    %s = tensor.extract %p[%c0, %c0, %c0] : tensor<2x16x16xf16>
    %out = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    %splat = tensor.splat %s : tensor<16x16xf16>
    ktdp.store %splat, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }
  // CHECK-LABEL: func.func @added_later
  func.func @added_later(%x: tensor<16x16xf16>, %y: tensor<16xf16>, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %e = tensor.empty() : tensor<16x16xf16>
    // CHECK:      %[[P:.+]] = linalg.generic {{.*}} outs(%[[E:.+]] : tensor<16x16xf16>)
    // CHECK:      %[[ROWS:.+]] = linalg.broadcast
    // CHECK-NEXT: arith.addf %[[P]], %[[ROWS]]
    %p = linalg.matmul ins(%x, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
    %rows = linalg.broadcast ins(%y : tensor<16xf16>) outs(%e : tensor<16x16xf16>) dimensions = [0]
    %sum = arith.addf %p, %rows : tensor<16x16xf16>
    %out = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    ktdp.store %sum, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }

  // Two products from one fill of zeros: the first gets a copy of it, the second the
  // fill itself (the schedules accumulate in the buffer of the output's initial value).
  // CHECK-LABEL: func.func @shared_fill
  func.func @shared_fill(%x: tensor<16x16xf16>, %c: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<16x16xf16>
    // CHECK:      %[[FILL:.+]] = linalg.fill
    // CHECK-NEXT: %[[FIRST:.+]] = linalg.fill
    // CHECK-NEXT: %[[P:.+]] = linalg.generic {{.*}} outs(%[[FIRST]] : tensor<16x16xf16>)
    // CHECK-NEXT:   ^
    // CHECK:      linalg.generic {{.*}} ins(%[[P]], %{{.+}} : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[FILL]] : tensor<16x16xf16>)
    %z = linalg.fill ins(%zero : f16) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
    %p = linalg.matmul ins(%x, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%z : tensor<16x16xf16>) -> tensor<16x16xf16>
    %q = linalg.matmul ins(%p, %x : tensor<16x16xf16>, tensor<16x16xf16>) outs(%z : tensor<16x16xf16>) -> tensor<16x16xf16>
    %out = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
    ktdp.store %q, %o : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
    return
  }
}
