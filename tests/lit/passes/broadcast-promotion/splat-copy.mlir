// A splat transfer is never merged with the copies of the loop around it: each
// copies one row's f32 maximum with stride 0 into that row's staging row (toy's ring
// stop, from scalar-broadcast-legalization), so the promoted stage keeps a loop of
// one-element copies; merged, the copy would read one element for all the rows.

// RUN: ktc-opt %s --arch toy -p ktir-to-schedule,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion | filecheck %s

// CHECK:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:   scf.for %[[ROW:[a-zA-Z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     %[[AT:[0-9]+]] = ktdf.tiling.linearize_index
// CHECK-NEXT:     ktdf.data_transfer from %{{.*}}[%[[AT]]] size [1] to %{{.*}}[%[[ROW]], 0, 0] size [1, 1, 4] {transfer_mode = "splat"} : memref<4xf32, "L1">, memref<?x1x4xf32, "L1">
// CHECK-NEXT:   }
// CHECK-NEXT: } {applicable_units = ["RING"]}

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @minus_row_max(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %init = tensor.splat %ninf : tensor<4xf32>
  %m = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (tensor<4xf32>) {
    %col = arith.muli %j, %c32 : index
    %xt = ktdp.construct_access_tile %xv[%c0, %col] {access_tile_set = #half, access_tile_order = #id} : memref<4x64xf32> -> !ktdp.access_tile<4x32xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf32>
    %r = linalg.reduce ins(%a : tensor<4x32xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
      (%in: f32, %o: f32) {
        %u = arith.maximumf %in, %o : f32
        linalg.yield %u : f32
      }
    scf.yield %r : tensor<4xf32>
  }
  scf.for %j = %c0 to %c2 step %c1 {
    %col = arith.muli %j, %c32 : index
    %xt = ktdp.construct_access_tile %xv[%c0, %col] {access_tile_set = #half, access_tile_order = #id} : memref<4x64xf32> -> !ktdp.access_tile<4x32xindex>
    %yt = ktdp.construct_access_tile %yv[%c0, %col] {access_tile_set = #half, access_tile_order = #id} : memref<4x64xf32> -> !ktdp.access_tile<4x32xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf32>
    %e = tensor.empty() : tensor<4x32xf32>
    %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %m : tensor<4x32xf32>, tensor<4xf32>) outs(%e : tensor<4x32xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %s = arith.subf %u, %v : f32
      linalg.yield %s : f32
    } -> tensor<4x32xf32>
    ktdp.store %d, %yt : tensor<4x32xf32>, !ktdp.access_tile<4x32xindex>
  }
  return
}
