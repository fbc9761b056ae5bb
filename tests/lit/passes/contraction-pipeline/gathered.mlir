// On a chip without a matrix unit (the third test chip) a product reading a gathered
// tile with k outer (attention's P V over a paged cache's values, V gathered as
// 16 x 128, k x n) reads it through a buffer laid out transposed: the gather's copy
// writes the new 128 x 16 buffer through a strided cast of the old shape
// (sizes [16, 128], strides [1, 16]: the DMA transposes), and the generic reads the
// whole new buffer as (n, k), its elements widened in the body (the arith.extf of
// the gathered tile folded by normalize-contractions).

// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p fold-reshapes-and-slices,compute-group-extraction,indirect-access-lowering,normalize-contractions,contraction-tiling,contraction-pipeline | filecheck %s

// CHECK-DAG:  #[[BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK:      %[[NEW:.+]] = memref.alloc() : memref<128x16xf16, "SPM">
// CHECK-NEXT: %[[CAST:.+]] = memref.reinterpret_cast %[[NEW]] to offset: [0], sizes: [16, 128], strides: [1, 16]
// CHECK-NOT:  memref<16x128xf16, "SPM">
// CHECK:      ktdf.data_transfer from %vv[{{.*}}] size [1, 16, 1, 128] to %[[CAST]][{{.*}}] size [16, 128]
// CHECK:      %[[TILE:.+]] = ktdp.construct_access_tile %[[NEW]][0, 0]
// CHECK-NEXT: %[[V:.+]] = ktdp.load %[[TILE]] : <128x16xindex> -> tensor<128x16xf16>
// CHECK:      linalg.generic {indexing_maps = [#{{.+}}, #[[BT]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%P, %[[V]] : tensor<8x16xf32>, tensor<128x16xf16>)
module {
  func.func @pv(%out_ptr: index, %p_ptr: index, %v_ptr: index, %bt_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %pv = ktdp.construct_memory_view %p_ptr, sizes: [8, 16], strides: [16, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<8x16xf32>
    %ov = ktdp.construct_memory_view %out_ptr, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<8x128xf32>
    %vv = ktdp.construct_memory_view %v_ptr, sizes: [4, 16, 2, 128], strides: [4096, 256, 128, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<4x16x2x128xf16>
    %btv = ktdp.construct_memory_view %bt_ptr, sizes: [1, 4], strides: [4, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<1x4xi32>
    %pt = ktdp.construct_access_tile %pv[%c0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf32> -> !ktdp.access_tile<8x16xindex>
    %P = ktdp.load %pt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf32>
    %c1 = arith.constant 1 : index
    %V_tile = ktdp.construct_indirect_access_tile
        intermediate_variables(%d0, %d1, %d2, %d3)
        %vv[ind(%btv[%c0, %c1 + %d0]), (%d1), (%c1 + %d2), (%d3)] {
      variables_space_set   = affine_set<(d0, d1, d2, d3) : (
          d0 >= 0, -d0 + 0   >= 0, d1 >= 0, -d1 + 15  >= 0,
          d2 >= 0, -d2 + 0   >= 0, d3 >= 0, -d3 + 127 >= 0)>,
      variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
    } : memref<4x16x2x128xf16>, memref<1x4xi32> -> !ktdp.access_tile<1x16x1x128xindex>
    %V4 = ktdp.load %V_tile : !ktdp.access_tile<1x16x1x128xindex> -> tensor<1x16x1x128xf16>
    %V16 = tensor.collapse_shape %V4 [[0, 1], [2, 3]] : tensor<1x16x1x128xf16> into tensor<16x128xf16>
    %V = arith.extf %V16 : tensor<16x128xf16> to tensor<16x128xf32>
    %zero = arith.constant 0.0 : f32
    %init = tensor.splat %zero : tensor<8x128xf32>
    %O = linalg.matmul ins(%P, %V : tensor<8x16xf32>, tensor<16x128xf32>) outs(%init : tensor<8x128xf32>) -> tensor<8x128xf32>
    %ot = ktdp.construct_access_tile %ov[%c0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x128xf32> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %O, %ot : tensor<8x128xf32>, !ktdp.access_tile<8x128xindex>
    return
  }
}
