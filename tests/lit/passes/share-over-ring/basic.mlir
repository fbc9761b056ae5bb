// Two tiles of a [1, 2] grid on toy multiply their own rows of A by the same columns of
// B (the benchmark's matmul, 48 x 20 x 36 in k steps of 12): their copies of B's k tiles
// read the same block of device memory at every iteration, their copies of A do not.
// B's copy is made by one tile of the pair in turn (the k tile's linear index over the
// loops around it, modulo 2, equal to the tile's position: a ktdf.tile_table of 0, 1),
// marked with the positions, and a stage on the ring stop after it forwards the whole
// k tile, under the same conditions, into the same buffer of the other tile (tile 0 to
// 1, 1 to 0); the stages around it name the stop too. A's copy is left as it was.

// RUN: ktc-opt %s --arch toy -p normalize-contractions,contraction-tiling,contraction-pipeline,share-over-ring | filecheck %s

// CHECK-LABEL: func.func @matmul
// CHECK:         %[[IDS:.+]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK:         %[[LINEAR:.+]] = arith.addi %[[IDS]]#0, %{{.+}} : index
// CHECK:         ktdf.stage
// CHECK-NOT:       ktdf.shared_over_ring
// CHECK:           ktdf.data_transfer from %{{.+}} size [6, 12, 1] to %{{.+}} size [6, 12, 1] :
// CHECK-NEXT:    } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[A_DONE:.+]]) depends_out(%[[B_DONE:.+]]) {
// CHECK:           scf.if
// CHECK:             %[[TURN:.+]] = affine.apply #{{.+}}(%{{.+}}, %{{.+}}, %{{.+}})
// CHECK-NEXT:        %[[MINE:.+]] = ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 1>} : index
// CHECK-NEXT:        %[[OWNER:.+]] = arith.cmpi eq, %[[TURN]], %[[MINE]] : index
// CHECK-NEXT:        scf.if %[[OWNER]] {
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} size [12, 1, 20] to %{{.+}} size [12, 1, 20] {ktdf.shared_over_ring = array<i64: 0, 1>}
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[B_DONE]]) depends_out(%[[FORWARDED:.+]]) {
// CHECK-NOT:       ktdf.data_transfer
// CHECK:             ktdf.tile_table %[[LINEAR]] {values = array<i64: 0, 1>} : index
// CHECK-NEXT:        arith.cmpi eq
// CHECK-NEXT:        scf.if
// CHECK-NEXT:          ktdf.data_transfer from %[[PANEL:.+]][0, 0, 0] size [1, 12, 20] to %[[PANEL]][0, 0, 0] size [1, 12, 20] {ktdf.to_tiles = array<i64: 1, 0>}
// CHECK:         } {applicable_units = ["RING"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[FORWARDED]])
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:       } {applicable_units = ["MNILU", "L1LU", "PT", "L1SU", "RING"]}

module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [1, 2]} {
    %c0 = arith.constant 0 : index
    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index
    %a_view = ktdp.construct_memory_view %a, sizes: [48, 36], strides: [36, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 35 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<48x36xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [36, 20], strides: [20, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 35 >= 0, d1 >= 0, -d1 + 19 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<36x20xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [48, 20], strides: [20, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 19 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<48x20xf16>
    %block_m = arith.constant 24 : index
    %block_n = arith.constant 20 : index
    %block_k = arith.constant 12 : index
    %depth = arith.constant 36 : index
    %row = arith.muli %tile_m, %block_m : index
    %col = arith.muli %tile_n, %block_n : index
    %zeros = arith.constant dense<0.0> : tensor<24x20xf16>
    %product = scf.for %kk = %c0 to %depth step %block_k iter_args(%acc = %zeros) -> (tensor<24x20xf16>) {
      %x_tile = ktdp.construct_access_tile %a_view[%row, %kk] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 11 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<48x36xf16> -> !ktdp.access_tile<24x12xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<24x12xindex> -> tensor<24x12xf16>
      %y_tile = ktdp.construct_access_tile %b_view[%kk, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 19 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<36x20xf16> -> !ktdp.access_tile<12x20xindex>
      %y = ktdp.load %y_tile : !ktdp.access_tile<12x20xindex> -> tensor<12x20xf16>
      %empty = tensor.empty() : tensor<24x20xf16>
      %dot = linalg.matmul ins(%x, %y : tensor<24x12xf16>, tensor<12x20xf16>) outs(%empty : tensor<24x20xf16>) -> tensor<24x20xf16>
      %next = arith.addf %acc, %dot : tensor<24x20xf16>
      scf.yield %next : tensor<24x20xf16>
    }
      %product_tile = ktdp.construct_access_tile %c_view[%row, %col] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 19 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<48x20xf16> -> !ktdp.access_tile<24x20xindex>
      ktdp.store %product, %product_tile : tensor<24x20xf16>, !ktdp.access_tile<24x20xindex>
    return
  }
}
