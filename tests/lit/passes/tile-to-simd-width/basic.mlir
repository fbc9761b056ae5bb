// Each chain becomes a loop nest over tiles of the SIMD width. C = (A + B) * s, with
// A a row vector broadcast over the 4 rows of B and s read at position 3: on toy (8
// f16 lanes) the columns take 8 and the rows 1, so the nest runs over 4 rows and 8
// blocks of 8 columns; on spyre (64 lanes) the columns take all 64, one step of the
// inner loop. In the innermost
// loop each load reads a tile of its view at the loop variables of its dimensions
// (A's at the column, s's one element at its fixed position 3, which the generic on
// tiles reads as position 0), the generic works on tiles, and the store writes C's
// tile. A row sum keeps its reduction dimension whole (64 columns cover toy's 8
// lanes): one row per step, read from column 0, its fill and its reduction on the
// row's tile. The untiled loads, generics and stores are erased.

// RUN: ktc-opt %s --arch toy -p tile-to-simd-width | filecheck %s
// RUN: ktc-opt %s --arch spyre -p tile-to-simd-width | filecheck %s --check-prefix=SPYRE

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d1)>
#third = affine_map<(d0, d1) -> (3)>
#kept = affine_map<(d0, d1) -> (d0)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%A: memref<64xf16, "DDR">, %B: memref<4x64xf16, "DDR">, %S: memref<4xf16, "L1">, %C: memref<4x64xf16, "DDR">) {
      %a_tile = ktdp.construct_access_tile %A[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16, "DDR"> -> !ktdp.access_tile<64xindex>
      %b_tile = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #mat, access_tile_order = #id2} : memref<4x64xf16, "DDR"> -> !ktdp.access_tile<4x64xindex>
      %s_tile = ktdp.construct_access_tile %S[0] {access_tile_set = #four, access_tile_order = #id1} : memref<4xf16, "L1"> -> !ktdp.access_tile<4xindex>
      %c_tile = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #mat, access_tile_order = #id2} : memref<4x64xf16, "DDR"> -> !ktdp.access_tile<4x64xindex>
      %a = ktdp.load %a_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      %b = ktdp.load %b_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %s = ktdp.load %s_tile : !ktdp.access_tile<4xindex> -> tensor<4xf16>
      %init = tensor.empty() : tensor<4x64xf16>
      %scaled = linalg.generic {indexing_maps = [#row, #id2, #third, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %s : tensor<64xf16>, tensor<4x64xf16>, tensor<4xf16>) outs(%init : tensor<4x64xf16>) {
      ^bb0(%ae: f16, %be: f16, %se: f16, %out: f16):
        %sum = arith.addf %ae, %be : f16
        %product = arith.mulf %sum, %se : f16
        linalg.yield %product : f16
      } -> tensor<4x64xf16>
      ktdp.store %scaled, %c_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%X: memref<4x64xf16, "DDR">, %S: memref<4xf16, "DDR">) {
      %x_tile = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #mat, access_tile_order = #id2} : memref<4x64xf16, "DDR"> -> !ktdp.access_tile<4x64xindex>
      %s_tile = ktdp.construct_access_tile %S[0] {access_tile_set = #four, access_tile_order = #id1} : memref<4xf16, "DDR"> -> !ktdp.access_tile<4xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %empty = tensor.empty() : tensor<4xf16>
      %zero = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%empty : tensor<4xf16>) {
      ^bb0(%o: f16):
        %c = arith.constant 0.0 : f16
        linalg.yield %c : f16
      } -> tensor<4xf16>
      %rows = linalg.generic {indexing_maps = [#id2, #kept], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf16>) outs(%zero : tensor<4xf16>) {
      ^bb0(%in: f16, %acc: f16):
        %add = arith.addf %in, %acc : f16
        linalg.yield %add : f16
      } -> tensor<4xf16>
      ktdp.store %rows, %s_tile : tensor<4xf16>, !ktdp.access_tile<4xindex>
      func.return
    }
  }
}

// CHECK-DAG:   [[ID2:#map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   [[ROW:#map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   [[FIRST:#map[0-9]*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG:   [[KEPT:#map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   [[EIGHT:#set[0-9]*]] = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
// CHECK-DAG:   [[ONE_BY_EIGHT:#set[0-9]*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
// CHECK-DAG:   [[ONE:#set[0-9]*]] = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[C64:.+]] = arith.constant 64 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.+]] = %[[C0]] to %[[C64]] step %[[C8]] {
// CHECK-NEXT:        %[[A_TILE:.+]] = ktdp.construct_access_tile %A[%[[J]]] {{{.*}}access_tile_set = [[EIGHT]]} : memref<64xf16, "DDR"> -> !ktdp.access_tile<8xindex>
// CHECK-NEXT:        %[[A:.+]] = ktdp.load %[[A_TILE]] : <8xindex> -> tensor<8xf16>
// CHECK-NEXT:        %[[B_TILE:.+]] = ktdp.construct_access_tile %B[%[[I]], %[[J]]] {{{.*}}access_tile_set = [[ONE_BY_EIGHT]]} : memref<4x64xf16, "DDR"> -> !ktdp.access_tile<1x8xindex>
// CHECK-NEXT:        %[[B:.+]] = ktdp.load %[[B_TILE]] : <1x8xindex> -> tensor<1x8xf16>
// CHECK-NEXT:        %[[S_TILE:.+]] = ktdp.construct_access_tile %S[3] {{{.*}}access_tile_set = [[ONE]]} : memref<4xf16, "L1"> -> !ktdp.access_tile<1xindex>
// CHECK-NEXT:        %[[S:.+]] = ktdp.load %[[S_TILE]] : <1xindex> -> tensor<1xf16>
// CHECK-NEXT:        %[[EMPTY:.+]] = tensor.empty() : tensor<1x8xf16>
// CHECK-NEXT:        %[[SCALED:.+]] = linalg.generic {indexing_maps = [[[ROW]], [[ID2]], [[FIRST]], [[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]], %[[S]] : tensor<8xf16>, tensor<1x8xf16>, tensor<1xf16>) outs(%[[EMPTY]] : tensor<1x8xf16>) {
// CHECK:             } -> tensor<1x8xf16>
// CHECK-NEXT:        %[[C_TILE:.+]] = ktdp.construct_access_tile %C[%[[I]], %[[J]]] {{{.*}}access_tile_set = [[ONE_BY_EIGHT]]} : memref<4x64xf16, "DDR"> -> !ktdp.access_tile<1x8xindex>
// CHECK-NEXT:        ktdp.store %[[SCALED]], %[[C_TILE]] : tensor<1x8xf16>, <1x8xindex>
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @local_schedule_1(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[X_TILE:.+]] = ktdp.construct_access_tile %X[%[[I]], 0] {{.*}} -> !ktdp.access_tile<1x64xindex>
// CHECK-NEXT:      %[[X:.+]] = ktdp.load %[[X_TILE]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK-NEXT:      %[[EMPTY:.+]] = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:      %[[ZERO:.+]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<1xf16>) {
// CHECK:           %[[ROWS:.+]] = linalg.generic {indexing_maps = [[[ID2]], [[KEPT]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<1x64xf16>) outs(%[[ZERO]] : tensor<1xf16>) {
// CHECK:           %[[S_TILE:.+]] = ktdp.construct_access_tile %S[%[[I]]] {{.*}} -> !ktdp.access_tile<1xindex>
// CHECK-NEXT:      ktdp.store %[[ROWS]], %[[S_TILE]] : tensor<1xf16>, <1xindex>
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NOT:     ktdp.load

// SPYRE-LABEL: func.func @local_schedule_0(
// SPYRE:         scf.for %[[I:.+]] = %{{.+}} to %c4 step %c1 {
// SPYRE-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %c64 step %c64 {
// SPYRE-NEXT:        ktdp.construct_access_tile %A[%[[J]]] {{.*}} -> !ktdp.access_tile<64xindex>
// SPYRE:             ktdp.construct_access_tile %B[%[[I]], %[[J]]] {{.*}} -> !ktdp.access_tile<1x64xindex>
