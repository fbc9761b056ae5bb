// Reductions, in both spellings of linalg.reduce, become reduction generics seeded
// by a fill of their init. A reduction dimension is never tiled: a row sum of 4x64
// loops over the rows one at a time and moves whole rows (64 elements, which cover
// toy's 8 lanes), 0 standing for the row's start; the result slot holds one
// element per row. A column maximum of 16x8 reduces the outer dimension, so the
// loop runs over the 8 columns (one vector) and each transfer moves all 16 rows.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s
// RUN: ktc-opt %s --arch spyre -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s --check-prefix=SPYRE

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vtile = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#cols = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#eight = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %S: index, %row: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
      %s_tile = ktdp.construct_access_tile %s_view[%row] {access_tile_set = #vtile, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %zero = arith.constant dense<0.0> : tensor<4xf16>
      %sum = linalg.reduce ins(%x : tensor<4x64xf16>) outs(%zero : tensor<4xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %s = arith.addf %in, %acc : f16
          linalg.yield %s : f16
        }
      ktdp.store %sum, %s_tile : tensor<4xf16>, !ktdp.access_tile<4xindex>
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%X: index, %M: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [16, 8], strides: [8, 1] {coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
      %m_view = ktdp.construct_memory_view %M, sizes: [8], strides: [1] {coordinate_set = #eight, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #cols, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
      %m_tile = ktdp.construct_access_tile %m_view[%c0] {access_tile_set = #eight, access_tile_order = #id1} : memref<8xf16> -> !ktdp.access_tile<8xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<16x8xindex> -> tensor<16x8xf16>
      %ninf = arith.constant 0xFC00 : f16
      %init = tensor.splat %ninf : tensor<8xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<16x8xf16>) outs(%init : tensor<8xf16>) dimensions = [0]
      ktdp.store %max, %m_tile : tensor<8xf16>, !ktdp.access_tile<8xindex>
      func.return
    }
  }
}

// CHECK-DAG:   [[ROW:#map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   [[ID:#map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   [[COLUMN:#map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   [[ONE_D:#map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %s_tile = memref.reinterpret_cast
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[FOUR:.+]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %[[ZERO]] to %[[FOUR]] step %[[ONE]] {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %[[P:.+]]:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:             ktdf.data_transfer from %x_tile[%[[I]], 0] size [1, 64] to %[[P]]#0 size [1, 64]
// CHECK:             %[[X:.+]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:        %[[EMPTY:.+]] = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:        %[[INIT:.+]] = linalg.generic {indexing_maps = [[[ONE_D]]], iterator_types = ["parallel"]} outs(%[[EMPTY]] : tensor<1xf16>) {
// CHECK-NEXT:        ^bb0(%{{.+}}: f16):
// CHECK-NEXT:          %[[Z:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:          linalg.yield %[[Z]] : f16
// CHECK-NEXT:        } -> tensor<1xf16>
// CHECK-NEXT:        %[[SUM:.+]] = linalg.generic {indexing_maps = [[[ID]], [[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<1x64xf16>) outs(%[[INIT]] : tensor<1xf16>) {
// CHECK:               arith.addf
// CHECK:             ktdf.write_to_fifo %[[SUM]], %[[P]]#1 : tensor<1xf16>, <"SFU" -> "DDR", 1xf16>
// CHECK:             ktdf.data_transfer from %[[P]]#1 size [1] to %s_tile[%[[I]]] size [1] : !ktdf.fifo.slot<"SFU" -> "DDR", 1xf16>, memref<4xf16, strided<[1], offset: ?>, "DDR">
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}

// CHECK-LABEL: func.func @local_schedule_1(
// CHECK:         %ninf = arith.constant
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[EIGHT:.+]] = arith.constant 8 : index
// CHECK-NEXT:    scf.for %[[J:.+]] = %[[ZERO]] to %[[EIGHT]] step %[[EIGHT]] {
// CHECK:             ktdf.data_transfer from %x_tile[0, %[[J]]] size [16, 8] to %{{.+}}#0 size [16, 8] : memref<16x8xf16, strided<[8, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
// CHECK:             %[[X:.+]] = ktdf.read_from_fifo %{{.+}}#0 : <"DDR" -> "SFU", 128xf16> -> tensor<16x8xf16>
// CHECK:             %[[INIT:.+]] = linalg.generic {indexing_maps = [[[ONE_D]]], iterator_types = ["parallel"]} outs(%{{.+}} : tensor<8xf16>) {
// CHECK-NEXT:        ^bb0(%{{.+}}: f16):
// CHECK-NEXT:          linalg.yield %ninf : f16
// CHECK:             linalg.generic {indexing_maps = [[[ID]], [[COLUMN]]], iterator_types = ["reduction", "parallel"]} ins(%[[X]] : tensor<16x8xf16>) outs(%[[INIT]] : tensor<8xf16>) {
// CHECK-NEXT:        ^bb0(%[[IN:.+]]: f16, %[[ACC:.+]]: f16):
// CHECK-NEXT:          arith.maxnumf %[[ACC]], %[[IN]] : f16
// CHECK:             ktdf.data_transfer from %{{.+}}#1 size [8] to %m_tile[%[[J]]] size [8]

// SPYRE-LABEL: func.func @local_schedule_0(
// SPYRE:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf16>,
// SPYRE:         ktdf.data_transfer from %x_tile[%{{.+}}, 0] size [1, 64]
// SPYRE-LABEL: func.func @local_schedule_1(
// SPYRE:         ktdf.data_transfer from %x_tile[0, %{{.+}}] size [16, 8] to %{{.+}}#0 size [16, 8] : memref<16x8xf16, strided<[8, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
