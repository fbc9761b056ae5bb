// What the pass does not rewrite is an error at the op at fault: a partition whose
// coordinate set is not a box, a load computed with whose tile may span two
// partitions, a store through a distributed view that may, and a use of the view
// that is not an access tile.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p split-distributed-views

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#diag = affine_set<(d0, d1) : (d0 - d1 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_a_box(%A: index, %S: index) {
  %a0 = ktdp.construct_memory_view %A, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %a1 = ktdp.construct_memory_view %S, sizes: [8, 16], strides: [16, 1] {coordinate_set = #diag, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  // expected-error@+1 {{input #1 of the distributed view covers affine_set<(d0, d1) : (d0 - d1 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>, not a box l_j <= d_j < n_j per dimension; the compiler routes coordinates to partitions that are boxes}}
  %a = ktdp.construct_distributed_memory_view(%a0, %a1 : memref<4x16xf16>, memref<8x16xf16>) : memref<12x16xf16>
  return
}

// -----

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @computed(%A: index, %S: index, %B: index, %r: index) {
  %c0 = arith.constant 0 : index
  %a0 = ktdp.construct_memory_view %A, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %a1 = ktdp.construct_memory_view %S, sizes: [8, 16], strides: [16, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %a = ktdp.construct_distributed_memory_view(%a0, %a1 : memref<4x16xf16>, memref<8x16xf16>) : memref<12x16xf16>
  %b = ktdp.construct_memory_view %B, sizes: [4, 16], strides: [16, 1] {coordinate_set = #four, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %a_r = ktdp.construct_access_tile %a[%r, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<4x16xindex>
  %b_r = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  // expected-error@+1 {{a load through a tile of a distributed view that may span several partitions, whose tensor is computed with, is not compiled: the tile must lie in one partition for every value of its indices, or on each tile in one of partitions alike but for their start; load each partition's part through a tile that lies in it and compute on each part (for a row-wise computation, one per partition of rows), or copy the tile into a view of device memory first (a load only stored, compiled per partition) and load that view in a later compute group}}
  %x = ktdp.load %a_r : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
  %y = arith.addf %x, %x : tensor<4x16xf16>
  ktdp.store %y, %b_r : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
  return
}

// -----

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @stored(%A: index, %S: index, %B: index) {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %a0 = ktdp.construct_memory_view %A, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %a1 = ktdp.construct_memory_view %S, sizes: [8, 16], strides: [16, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %a = ktdp.construct_distributed_memory_view(%a0, %a1 : memref<4x16xf16>, memref<8x16xf16>) : memref<12x16xf16>
  %b = ktdp.construct_memory_view %B, sizes: [4, 16], strides: [16, 1] {coordinate_set = #four, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %a_2 = ktdp.construct_access_tile %a[%c2, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<12x16xf16> -> !ktdp.access_tile<4x16xindex>
  %b_0 = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #four, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %x = ktdp.load %b_0 : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
  // expected-error@+1 {{a store through a tile of a distributed view that may span several partitions is not compiled: the tile must lie in one partition for every value of its indices, or on each tile in one of partitions alike but for their start; store each partition's part (a tensor.extract_slice of the data) through a tile that lies in it}}
  ktdp.store %x, %a_2 : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
  return
}
