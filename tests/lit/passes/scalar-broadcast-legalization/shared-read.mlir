// A per-row scalar loaded once and read by two generics of one compute stage (a
// reduction and the elementwise step after it), on the toy device: it is widened and
// splat once, both generics read the widened FIFO slot along the vector, and its view
// is marked ktdf.masked, so that the widened copy stops at the view's end.

// RUN: ktc-opt %s --arch toy -p ktir-legality-check,compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization | filecheck %s

// CHECK:      %sv = ktdp.construct_memory_view %s, {{.*}}ktdf.masked
// CHECK:      ktdf.data_transfer from %st[%{{.*}}] size [8] to %[[BUFFER:.*]][0] size [8] : memref<1xf16, {{.*}}>, memref<8xf16, "L1">
// CHECK:      ktdf.data_transfer from %[[BUFFER]][0] size [1] to %[[SLOT:.*]] size [8] {transfer_mode = "splat"}
// CHECK:      %b = ktdf.read_from_fifo %[[SLOT]] : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:      linalg.generic {indexing_maps = [#[[ROW:map[0-9]*]], #[[ROW]], #{{map[0-9]*}}], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<1x8xf16>, tensor<1x8xf16>)
// CHECK:      linalg.generic {indexing_maps = [#[[ROW]], #[[ROW]], #{{map[0-9]*}}, #[[ROW]]], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %m : tensor<1x8xf16>, tensor<1x8xf16>, tensor<1xf16>)

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @scaled_centered(%x: index, %s: index, %y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %r = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 8], strides: [8, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %sv = ktdp.construct_memory_view %s, sizes: [4], strides: [1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 8], strides: [8, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<1x8xindex>
  %st = ktdp.construct_access_tile %sv[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<1xindex>
  %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<1x8xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
  %b = ktdp.load %st : !ktdp.access_tile<1xindex> -> tensor<1xf16>
  %full = tensor.empty() : tensor<1x8xf16>
  %one = tensor.empty() : tensor<1xf16>
  %brow = linalg.broadcast ins(%b : tensor<1xf16>) outs(%full : tensor<1x8xf16>) dimensions = [1]
  %t = arith.mulf %a, %brow : tensor<1x8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%one : tensor<1xf16>) -> tensor<1xf16>
  %m = linalg.reduce { arith.addf } ins(%t : tensor<1x8xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %mrow = linalg.broadcast ins(%m : tensor<1xf16>) outs(%full : tensor<1x8xf16>) dimensions = [1]
  %c = arith.subf %t, %mrow : tensor<1x8xf16>
  ktdp.store %c, %yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  return
}
