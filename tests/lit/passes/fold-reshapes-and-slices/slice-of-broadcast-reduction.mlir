// A slice of a row-normalized tile (each row divided by its sum, as a softmax's
// probabilities) is the division of the slices: the rows' loaded tile sliced, and the
// broadcast of the sums a generic reading the whole reduction (a slice of the whole
// of it, along the rows the slice keeps whole, is the reduction's result itself).

// RUN: ktc-opt %s -p fold-reshapes-and-slices | filecheck %s

// CHECK-LABEL: func.func @normalized_half
// CHECK-NOT:   tensor.extract_slice
// CHECK:       %[[ALL:.+]] = ktdp.load %{{.+}} : <8x64xindex> -> tensor<8x64xf32>
// CHECK:       %[[SUMS:.+]] = linalg.reduce ins(%[[ALL]] : tensor<8x64xf32>)
// CHECK:       %[[HALF:.+]] = ktdp.load %{{.+}} : <8x32xindex> -> tensor<8x32xf32>
// CHECK:       %[[SPREAD:.+]] = linalg.generic {{.*}} ins(%[[SUMS]] : tensor<8xf32>) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:       %[[Q:.+]] = arith.divf %[[HALF]], %[[SPREAD]] : tensor<8x32xf32>
// CHECK:       ktdp.store %[[Q]], %{{.+}} : tensor<8x32xf32>
// CHECK-NOT:   tensor.extract_slice

#rs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#os = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @normalized_half(%r: index, %o: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %rv = ktdp.construct_memory_view %r, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %ov = ktdp.construct_memory_view %o, sizes: [8, 32], strides: [32, 1] {coordinate_set = #os, memory_space = #ktdp.memory_space<global>} : memref<8x32xf32>
  %rt = ktdp.construct_access_tile %rv[%c0, %c0] {access_tile_set = #rs, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #os, access_tile_order = #id2} : memref<8x32xf32> -> !ktdp.access_tile<8x32xindex>
  %rows = ktdp.load %rt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %init = tensor.splat %zero : tensor<8xf32>
  %sums = linalg.reduce ins(%rows : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%p: f32, %q: f32) {
      %add = arith.addf %p, %q : f32
      linalg.yield %add : f32
    }
  %empty = tensor.empty() : tensor<8x64xf32>
  %spread = linalg.broadcast ins(%sums : tensor<8xf32>) outs(%empty : tensor<8x64xf32>) dimensions = [1]
  %normalized = arith.divf %rows, %spread : tensor<8x64xf32>
  %half = tensor.extract_slice %normalized[0, 32] [8, 32] [1, 1] : tensor<8x64xf32> to tensor<8x32xf32>
  ktdp.store %half, %ot : tensor<8x32xf32>, !ktdp.access_tile<8x32xindex>
  return
}
