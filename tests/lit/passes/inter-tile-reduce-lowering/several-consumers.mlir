// Several consumers per group: every producer copies its slot to each consumer of its
// group other than itself, one ring pipeline per consumer rank (the k-th consumer of
// a group in ascending tile id), each with its own ktdf.to_tiles table. An all-reduce
// over two groups of two (tiles 0, 1 and 2, 3) has two ranks; a reduce-to-subset of
// four producers to tiles 1 and 3 has two ranks too, the consumer itself marked -1.

// RUN: ktc-opt %s --split-input-file --arch spyre -p inter-tile-reduce-lowering | filecheck %s

#pairs = affine_set<(t)[g] : (t - 2 * g >= 0, 2 * g + 1 - t >= 0)>
func.func @all_reduce(%s: f16) attributes {grid = [4]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, 1 - g >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  %e = arith.negf %r : tensor<1x64xf16>
  return
}

// CHECK-LABEL: func.func @all_reduce
// CHECK:         %received = memref.alloc() : memref<2x64xf16, "L1">
// CHECK:         ktdf.tile_table %{{.+}} {values = array<i64: 0, 1, 0, 1>} : index
// CHECK:         ktdp.store %d,
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           ktdf.data_transfer {{.+}} {ktdf.to_tiles = array<i64: -1, 0, -1, 2>}
// CHECK:         ktdf.pipeline {
// CHECK:           ktdf.data_transfer {{.+}} {ktdf.to_tiles = array<i64: 1, -1, 3, -1>}
// CHECK-NOT:     ktdf.pipeline
// CHECK:         %partial0 = ktdp.load
// CHECK:         %partial1 = ktdp.load
// CHECK-NEXT:    %[[SUM:.+]] = arith.addf %partial0, %partial1 : tensor<1x64xf16>
// CHECK-NEXT:    %e = arith.negf %[[SUM]] : tensor<1x64xf16>

// -----

#all = affine_set<(t)[g] : (t >= 0, 3 - t >= 0)>
#subset = affine_set<(t)[g] : (t - 1 >= 0, 3 - t >= 0, t - 2 * (t floordiv 2) - 1 == 0)>
func.func @subset(%s: f16) attributes {grid = [4]} {
  %d = tensor.splat %s : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #subset, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %m : tensor<1x64xf16>
  }
  return
}

// CHECK-LABEL: func.func @subset
// CHECK:         %received = memref.alloc() : memref<4x64xf16, "L1">
// CHECK:         ktdf.data_transfer {{.+}} {ktdf.to_tiles = array<i64: 1, -1, 1, 1>}
// CHECK:         ktdf.data_transfer {{.+}} {ktdf.to_tiles = array<i64: 3, 3, 3, -1>}
// CHECK-NOT:     ktdf.data_transfer
// CHECK:         %partial3 = ktdp.load
