// What generalization makes of the ops that are not elementwise. A row vector
// broadcast over 4 rows (linalg.broadcast) and one element of a vector taken with
// tensor.extract and splat fuse into the generic using them, read through
// (d0, d1) -> (d1) and (d0, d1) -> (0). A row sum (linalg.reduce in its region
// spelling) becomes a reduction generic whose accumulator is a fill generic of the
// splat constant seeding it; a load and an exp that no store needs are erased. A
// loaded tile stored as it is gets an identity generic (a linalg.copy) to run, and
// a splat stored with nothing loaded a fill generic of the scalar.

// RUN: ktc-opt %s -p generalize-and-fuse | filecheck %s

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vtile = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %S: index, %C: index, %row: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %a_view = ktdp.construct_memory_view %A, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
      %b_view = ktdp.construct_memory_view %B, sizes: [64, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %c_view = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %a_tile = ktdp.construct_access_tile %a_view[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %s_tile = ktdp.construct_access_tile %s_view[%c0] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
      %b_tile = ktdp.construct_access_tile %b_view[%row, %c0] {access_tile_set = #mat, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
      %c_tile = ktdp.construct_access_tile %c_view[%row, %c0] {access_tile_set = #mat, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
      %a = ktdp.load %a_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      %s = ktdp.load %s_tile : !ktdp.access_tile<1xindex> -> tensor<1xf16>
      %b = ktdp.load %b_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %init = tensor.empty() : tensor<4x64xf16>
      %a_rows = linalg.broadcast ins(%a : tensor<64xf16>) outs(%init : tensor<4x64xf16>) dimensions = [0]
      %sum = arith.addf %a_rows, %b : tensor<4x64xf16>
      %scalar = tensor.extract %s[%c0] : tensor<1xf16>
      %scale = tensor.splat %scalar : tensor<4x64xf16>
      %scaled = arith.mulf %sum, %scale : tensor<4x64xf16>
      ktdp.store %scaled, %c_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
      func.return
    }
  }
  module @local_schedule_1 {
    func.func @local_schedule_1(%X: index, %S: index, %row: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [64, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%row, %c0] {access_tile_set = #mat, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
      %s_tile = ktdp.construct_access_tile %s_view[%row] {access_tile_set = #vtile, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %unused = ktdp.load %x_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %unused_exp = math.exp %unused : tensor<4x64xf16>
      %zero = arith.constant dense<0.0> : tensor<4xf16>
      %rows = linalg.reduce ins(%x : tensor<4x64xf16>) outs(%zero : tensor<4xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %add = arith.addf %in, %acc : f16
          linalg.yield %add : f16
        }
      ktdp.store %rows, %s_tile : tensor<4xf16>, !ktdp.access_tile<4xindex>
      func.return
    }
  }
  module @local_schedule_2 {
    func.func @local_schedule_2(%X: index, %Y: index, %value: f16) {
      %c0 = arith.constant 0 : index
      %x_view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %y_view = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      ktdp.store %x, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
      %fill = tensor.splat %value : tensor<64xf16>
      ktdp.store %fill, %x_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
      func.return
    }
  }
}

// CHECK-DAG:   [[ID2:#map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   [[ROW:#map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   [[FIRST:#map[0-9]*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG:   [[KEPT:#map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   [[ID1:#map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[A:.+]] = ktdp.load %a_tile
// CHECK-NEXT:    %[[S:.+]] = ktdp.load %s_tile
// CHECK-NEXT:    %[[B:.+]] = ktdp.load %b_tile
// CHECK-NEXT:    %[[INIT:.+]] = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT:    %[[SCALED:.+]] = linalg.generic {indexing_maps = [[[ROW]], [[ID2]], [[FIRST]], [[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]], %[[S]] : tensor<64xf16>, tensor<4x64xf16>, tensor<1xf16>) outs(%[[INIT]] : tensor<4x64xf16>) {
// CHECK-NEXT:    ^bb0(%[[AE:.+]]: f16, %[[BE:.+]]: f16, %[[SE:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:      %[[SUM:.+]] = arith.addf %[[AE]], %[[BE]] : f16
// CHECK-NEXT:      %[[PRODUCT:.+]] = arith.mulf %[[SUM]], %[[SE]] : f16
// CHECK-NEXT:      linalg.yield %[[PRODUCT]] : f16
// CHECK-NEXT:    } -> tensor<4x64xf16>
// CHECK-NEXT:    ktdp.store %[[SCALED]], %c_tile
// CHECK-NOT:     tensor.extract
// CHECK-LABEL: func.func @local_schedule_1(
// CHECK:         %[[X:.+]] = ktdp.load %x_tile : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[EMPTY:.+]] = tensor.empty() : tensor<4xf16>
// CHECK-NEXT:    %[[ZERO:.+]] = linalg.generic {indexing_maps = [[[ID1]]], iterator_types = ["parallel"]} outs(%[[EMPTY]] : tensor<4xf16>) {
// CHECK-NEXT:    ^bb0(%{{.+}}: f16):
// CHECK-NEXT:      %[[C:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:      linalg.yield %[[C]] : f16
// CHECK-NEXT:    } -> tensor<4xf16>
// CHECK-NEXT:    %[[ROWS:.+]] = linalg.generic {indexing_maps = [[[ID2]], [[KEPT]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x64xf16>) outs(%[[ZERO]] : tensor<4xf16>) {
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f16, %[[ACC:.+]]: f16):
// CHECK-NEXT:      %[[ADD:.+]] = arith.addf %[[IN]], %[[ACC]] : f16
// CHECK-NEXT:      linalg.yield %[[ADD]] : f16
// CHECK-NEXT:    } -> tensor<4xf16>
// CHECK-NEXT:    ktdp.store %[[ROWS]], %s_tile
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @local_schedule_2(
// CHECK:         %[[X:.+]] = ktdp.load %x_tile : <64xindex> -> tensor<64xf16>
// CHECK-NEXT:    %[[EMPTY:.+]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:    %[[COPY:.+]] = linalg.generic {indexing_maps = [[[ID1]], [[ID1]]], iterator_types = ["parallel"]} ins(%[[X]] : tensor<64xf16>) outs(%[[EMPTY]] : tensor<64xf16>) {
// CHECK-NEXT:    ^bb0(%[[XE:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:      linalg.yield %[[XE]] : f16
// CHECK-NEXT:    } -> tensor<64xf16>
// CHECK-NEXT:    ktdp.store %[[COPY]], %y_tile
// CHECK-NEXT:    %[[EMPTY2:.+]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:    %[[FILL:.+]] = linalg.generic {indexing_maps = [[[ID1]]], iterator_types = ["parallel"]} outs(%[[EMPTY2]] : tensor<64xf16>) {
// CHECK-NEXT:    ^bb0(%{{.+}}: f16):
// CHECK-NEXT:      linalg.yield %value : f16
// CHECK-NEXT:    } -> tensor<64xf16>
// CHECK-NEXT:    ktdp.store %[[FILL]], %x_tile
