// A splat transfer between memories is a DMA from the one element seen in the
// destination block's shape with stride 0: toy's ring stop fills the staging row of
// each row's f32 maximum (scalar-broadcast-legalization) with one such copy per row,
// after the store unit's hand-off of the maxima, before the load unit's.
// The whole pipeline runs, so the splat copies also show that no pass merges them.

// RUN: ktc-opt %s --arch toy -p ktir-to-dfir | filecheck %s

// CHECK:      dfir.program "RING"
// CHECK:        dfir.sync_recv %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1SU">
// CHECK:        scf.for
// CHECK:          %[[ROW:[0-9]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<4xf32>
// CHECK-NEXT:     %[[ONE:[0-9]+]] = dfir.view %{{.*}}[%{{.*}}] : !dfir.unit<"L1"> -> memref<4xf32, strided<[0]>>
// CHECK-NEXT:     dfir.dma %[[ONE]] to %[[ROW]] : memref<4xf32, strided<[0]>>, memref<4xf32>
// CHECK-COUNT-3:  dfir.dma %{{.*}} to %{{.*}} : memref<4xf32, strided<[0]>>, memref<4xf32>
// CHECK-NOT:      dfir.dma
// CHECK:        dfir.sync_send %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1LU">
// CHECK:      dfir.program "MNISU"

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
