// The forms anchor-ktir §6 lists as seen in real KTIR, in one kernel, that the other
// upstream tests do not already show: comments after function arguments, function
// attributes after the signature, hex and dense float constants, results named one
// by one and as a group, `sizes : [..]` with a space, stripped ktdp types,
// tensor.collapse_shape to rank 0 with `[]`, tensor.expand_shape with output_shape,
// linalg.broadcast with no result type, a bare return. They read, print in MLIR's
// spelling, read back to the same text, and real mlir-opt accepts the generic form.
// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s > %t.mlir
// RUN: ktc-opt %t.mlir | diff %t.mlir -
// RUN: ktc-opt %s --print-op-generic | ktc-opt | diff %t.mlir -
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s --check-prefix=MLIR %}

// CHECK-LABEL: func.func @forms(%x_ptr: index, %n: index) attributes {grid = [32, 1]} {
// CHECK-NEXT:    %ninf = arith.constant 0xFC00 : f16
// CHECK-NEXT:    %zeros = arith.constant dense<0.000000e+00> : tensor<1x1024xf16>
// CHECK-NEXT:    %a, %b = ktdp.get_compute_tile_id : index, index
// CHECK-NEXT:    %g:2 = ktdp.get_compute_tile_id : index, index
// CHECK-NEXT:    %v = ktdp.construct_memory_view %x_ptr, sizes: [1, 4], strides: [4, 1]
// CHECK-NEXT:    %t = ktdp.construct_access_tile %v[%a, %g#1]
// CHECK-NEXT:    %d = ktdp.load %t : <1x4xindex> -> tensor<1x4xf16>
// CHECK-NEXT:    %flat = tensor.collapse_shape %d {{\[\[}}0, 1]] : tensor<1x4xf16> into tensor<4xf16>
// CHECK-NEXT:    %back = tensor.expand_shape %flat {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf16> into tensor<1x4xf16>
// CHECK-NEXT:    %one = tensor.empty() : tensor<1x1xf16>
// CHECK-NEXT:    %scalar = tensor.collapse_shape %one [] : tensor<1x1xf16> into tensor<f16>
// CHECK-NEXT:    %init = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT:    %bc = linalg.broadcast ins(%scalar : tensor<f16>) outs(%init : tensor<4x64xf16>) dimensions = [0, 1]
// CHECK-NEXT:    ktdp.store %back, %t : tensor<1x4xf16>, <1x4xindex>
// CHECK-NEXT:    return

// MLIR-LABEL: func.func @forms
// MLIR:         arith.constant 0xFC00 : f16
// MLIR:         tensor.collapse_shape %{{.*}} [] : tensor<1x1xf16> into tensor<f16>
// MLIR:         linalg.broadcast ins(%{{.*}} : tensor<f16>) outs(%{{.*}} : tensor<4x64xf16>) dimensions = [0, 1]
// MLIR:         ktdp.store

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0)>
module {
  func.func @forms(%x_ptr: index,  // a pointer
                   %n: index       // a size
  ) attributes {grid = [32, 1]} {
    %ninf = arith.constant 0xFC00 : f16
    %zeros = arith.constant dense<0.0> : tensor<1x1024xf16>
    %a, %b = ktdp.get_compute_tile_id : index, index
    %g:2 = ktdp.get_compute_tile_id : index, index
    %v = ktdp.construct_memory_view %x_ptr, sizes : [1, 4], strides : [4, 1] {
      coordinate_set = #set, memory_space = #ktdp.memory_space<global>
    } : memref<1x4xf16>
    %t = ktdp.construct_access_tile %v[%a, %g#1] {
      access_tile_set = #set, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<1x4xf16> -> <1x4xindex>
    %d = ktdp.load %t : <1x4xindex> -> tensor<1x4xf16>
    %flat = tensor.collapse_shape %d [[0, 1]] : tensor<1x4xf16> into tensor<4xf16>
    %back = tensor.expand_shape %flat [[0, 1]] output_shape [1, 4] : tensor<4xf16> into tensor<1x4xf16>
    %one = tensor.empty() : tensor<1x1xf16>
    %scalar = tensor.collapse_shape %one [] : tensor<1x1xf16> into tensor<f16>
    %init = tensor.empty() : tensor<4x64xf16>
    %bc = linalg.broadcast ins(%scalar : tensor<f16>) outs(%init : tensor<4x64xf16>) dimensions = [0, 1]
    ktdp.store %back, %t : tensor<1x4xf16>, <1x4xindex>
    return
  }
}
