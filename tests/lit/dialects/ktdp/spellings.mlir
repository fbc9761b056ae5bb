// The alternative spellings of ktdp that IBM's KTIR interpreter (ktir-cpu) reads,
// beside those of its MLIR front end, read here too and print in the current
// spelling, which reads back to the same text (custom and generic form):
// - ktdp.inter_tile_produce with its partial types before the future's,
//   `: T -> !ktdp.tile_future<T, groups = ...>` (parenthesized or not), and
//   producer_tiles_per_group inside the attr-dict;
// - ktdp.inter_tile_reduce whose identity and results hold the partial's elements
//   reshaped by unit dimensions (a tensor<1x128xf16> partial returned as
//   tensor<128xf16>, started from a tensor<1x128xf16> or tensor<128xf16> identity);
// - ktdp.construct_memory_view without coordinate_set (the box of its sizes, one
//   symbol per dynamic size) or without memory_space (global), printed explicitly.
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s
// RUN: ktc-opt %s > %t.mlir
// RUN: ktc-opt %t.mlir | diff %t.mlir -

// CHECK-DAG: #[[$ALL:set[0-9]*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0)>
// CHECK-DAG: #[[$ONE:set[0-9]*]] = affine_set<(d0) : (d0 == 0)>
// CHECK-DAG: #[[$N64:set[0-9]*]] = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-DAG: #[[$FOUR:set[0-9]*]] = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
// CHECK-DAG: #[[$N8M:set[0-9]*]] = affine_set<(d0, d1, d2)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + s1 - 1 >= 0)>
// CHECK-DAG: #[[$POINT:set[0-9]*]] = affine_set<() : (0 == 0)>

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
#first = affine_set<(i)[g] : (i == 0)>

func.func @older_produce(%d: tensor<1x128xf16>, %e: tensor<1x128xi32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all : tensor<1x128xf16> -> !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x128xf16>
  }
  %p = ktdp.inter_tile_produce {producer_tiles_per_group = #all} : (tensor<1x128xf16>, tensor<1x128xi32>) -> !ktdp.tile_future<tensor<1x128xf16>, tensor<1x128xi32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d, %e : tensor<1x128xf16>, tensor<1x128xi32>
  }
  %q = ktdp.inter_tile_produce {note, producer_tiles_per_group = #all} -> <(tensor<1x128xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x128xf16>
  }
  return
}
// CHECK-LABEL: func.func @older_produce
// CHECK-NEXT:  %{{.*}} = ktdp.inter_tile_produce producer_tiles_per_group = #[[$ALL]] -> <(tensor<1x128xf16>), groups = #[[$ONE]]> {
// CHECK-NEXT:  ^bb0(%{{.*}}: index):
// CHECK-NEXT:    ktdp.yield_partial %{{.*}} : tensor<1x128xf16>
// CHECK:       ktdp.inter_tile_produce producer_tiles_per_group = #[[$ALL]] -> <(tensor<1x128xf16>, tensor<1x128xi32>), groups = #[[$ONE]]> {
// CHECK:       ktdp.inter_tile_produce producer_tiles_per_group = #[[$ALL]] {note} -> <(tensor<1x128xf16>), groups = #[[$ONE]]> {

func.func @reshaped_reduce(%d: tensor<1x128xf16>, %z: tensor<1x128xf16>, %z1: tensor<128xf16>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all : tensor<1x128xf16> -> !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x128xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity(%z : tensor<1x128xf16>) : !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
  ^bb0(%a: tensor<1x128xf16>, %b: tensor<1x128xf16>):
    %s = arith.addf %a, %b : tensor<1x128xf16>
    ktdp.yield_reduced %s : tensor<1x128xf16>
  }
  %g = ktdp.inter_tile_produce producer_tiles_per_group = #all -> <(tensor<1x128xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x128xf16>
  }
  %r1 = ktdp.inter_tile_reduce(%g) consumer_tiles_per_group = #all, identity(%z1 : tensor<128xf16>) : <(tensor<1x128xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x128x1xf16> {
  ^bb0(%a: tensor<1x128xf16>, %b: tensor<1x128xf16>):
    %m = arith.maximumf %a, %b : tensor<1x128xf16>
    ktdp.yield_reduced %m : tensor<1x128xf16>
  }
  return
}
// CHECK-LABEL: func.func @reshaped_reduce
// CHECK-SAME:  (%{{[^:]*}}: tensor<1x128xf16>, %[[Z:[^:]*]]: tensor<1x128xf16>, %[[Z1:[^:]*]]: tensor<128xf16>)
// CHECK:       ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #{{set[0-9]*}}, identity(%[[Z]] : tensor<1x128xf16>) : <(tensor<1x128xf16>), groups = #[[$ONE]]> -> tensor<128xf16> {
// CHECK:       ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #[[$ALL]], identity(%[[Z1]] : tensor<128xf16>) : <(tensor<1x128xf16>), groups = #[[$ONE]]> -> tensor<1x128x1xf16> {

func.func @view_defaults(%addr: index, %n: index, %m: index) {
  %a = ktdp.construct_memory_view %addr, sizes: [%n, 64], strides: [64, 1] {
    memory_space = #ktdp.memory_space<ct_local>
  } : memref<?x64xf16>
  %b = ktdp.construct_memory_view %addr, sizes: [4], strides: [1] : memref<4xf32>
  %c = ktdp.construct_memory_view %addr, sizes: [%n, 8, %m], strides: [%m, %n, 1] {note} : memref<?x8x?xf16>
  %d = ktdp.construct_memory_view %addr, sizes: [], strides: [] : memref<f16>
  return
}
// CHECK-LABEL: func.func @view_defaults
// CHECK-NEXT:  ktdp.construct_memory_view %{{.*}}, sizes: [%{{.*}}, 64], strides: [64, 1] {coordinate_set = #[[$N64]], memory_space = #ktdp.memory_space<ct_local>} : memref<?x64xf16>
// CHECK-NEXT:  ktdp.construct_memory_view %{{.*}}, sizes: [4], strides: [1] {coordinate_set = #[[$FOUR]], memory_space = #ktdp.memory_space<global>} : memref<4xf32>
// CHECK-NEXT:  ktdp.construct_memory_view %{{.*}}, sizes: [%{{.*}}, 8, %{{.*}}], strides: [%{{.*}}, %{{.*}}, 1] {coordinate_set = #[[$N8M]], memory_space = #ktdp.memory_space<global>, note} : memref<?x8x?xf16>
// CHECK-NEXT:  ktdp.construct_memory_view %{{.*}}, sizes: [], strides: [] {coordinate_set = #[[$POINT]], memory_space = #ktdp.memory_space<global>} : memref<f16>
