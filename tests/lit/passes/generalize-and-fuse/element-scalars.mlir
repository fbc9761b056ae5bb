// A scalar computed from an element of a tensor the phase makes (a row's sum taken
// with tensor.extract and divided into its mean) and used by compute on tensors is
// computed in the generic using it: the reduction's result becomes an input read at
// the extract's constant position, (d0, d1) -> (0), and the scalar ops on it are
// cloned into the body, both in a splat and in a generic that captured the scalar.
// The extract and the scalar ops outside are erased.

// RUN: ktc-opt %s -p generalize-and-fuse | filecheck %s

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %Z: index) {
    %c0 = arith.constant 0 : index
    %n = arith.constant 256.0 : f32
    %x_view = ktdp.construct_memory_view %X, sizes: [1, 256], strides: [256, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x256xf32>
    %y_view = ktdp.construct_memory_view %Y, sizes: [1, 256], strides: [256, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x256xf32>
    %z_view = ktdp.construct_memory_view %Z, sizes: [1, 256], strides: [256, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x256xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x256xf32> -> !ktdp.access_tile<1x256xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x256xf32> -> !ktdp.access_tile<1x256xindex>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x256xf32> -> !ktdp.access_tile<1x256xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf32>
    %zero = arith.constant dense<0.0> : tensor<1xf32>
    %s = linalg.reduce { arith.addf } ins(%x : tensor<1x256xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
    %sum = tensor.extract %s[%c0] : tensor<1xf32>
    %mean = arith.divf %sum, %n : f32
    %m = tensor.splat %mean : tensor<1x256xf32>
    %y = arith.subf %x, %m : tensor<1x256xf32>
    ktdp.store %y, %y_tile : tensor<1x256xf32>, !ktdp.access_tile<1x256xindex>
    %e = tensor.empty() : tensor<1x256xf32>
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<1x256xf32>) outs(%e : tensor<1x256xf32>) {
    ^bb0(%v: f32, %o: f32):
      %d = arith.mulf %v, %mean : f32
      linalg.yield %d : f32
    } -> tensor<1x256xf32>
    ktdp.store %z, %z_tile : tensor<1x256xf32>, !ktdp.access_tile<1x256xindex>
    func.return
  }
}

// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ELEMENT:.+]] = affine_map<(d0, d1) -> (0)>
// CHECK-NOT:   tensor.extract
// CHECK:       %[[S:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "reduction"]}
// CHECK:       %[[Y:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ELEMENT]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%x, %[[S]] : tensor<1x256xf32>, tensor<1xf32>)
// CHECK-NEXT:  ^{{.+}}(%[[V:.+]]: f32, %[[SUM:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[MEAN:.+]] = arith.divf %[[SUM]], %n : f32
// CHECK-NEXT:    %{{.+}} = arith.subf %[[V]], %[[MEAN]] : f32
// CHECK:       ktdp.store %[[Y]], %y_tile
// CHECK:       %[[Z:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ELEMENT]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%x, %[[S]] : tensor<1x256xf32>, tensor<1xf32>)
// CHECK-NEXT:  ^{{.+}}(%[[V2:.+]]: f32, %[[SUM2:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[MEAN2:.+]] = arith.divf %[[SUM2]], %n : f32
// CHECK-NEXT:    %{{.+}} = arith.mulf %[[V2]], %[[MEAN2]] : f32
// CHECK:       ktdp.store %[[Z]], %z_tile
// CHECK-NOT:   arith.divf
