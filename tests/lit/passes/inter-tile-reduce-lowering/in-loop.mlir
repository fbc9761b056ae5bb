// A reduce inside scf.for loops: the receive buffer is allocated once, at the
// function's start, and reused; the store into the tile's slot, the ring copy and the
// fold are emitted where the pair was, inside the innermost loop.

// RUN: ktc-opt %s --arch toy -p inter-tile-reduce-lowering | filecheck %s

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @in_loop(%s: f16, %n: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      %d = tensor.splat %s : tensor<1x64xf16>
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %d : tensor<1x64xf16>
      }
      %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity() : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
      ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
        %m = arith.addf %lhs, %rhs : tensor<1x64xf16>
        ktdp.yield_reduced %m : tensor<1x64xf16>
      }
      %e = arith.negf %r : tensor<1x64xf16>
    }
  }
  return
}

// CHECK:       func.func @in_loop(%s: f16, %n: index) attributes {grid = [2]} {
// CHECK-NEXT:    %received = memref.alloc() : memref<2x64xf16, "L1">
// CHECK:         scf.for %i =
// CHECK-NEXT:      scf.for %k =
// CHECK:             ktdp.store %d,
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               ktdf.data_transfer {{.+}} {ktdf.to_tiles = array<i64: -1, 0>}
// CHECK:             %partial0 = ktdp.load
// CHECK:             %partial1 = ktdp.load
// CHECK-NEXT:        %[[SUM:.+]] = arith.addf %partial0, %partial1 : tensor<1x64xf16>
// CHECK-NEXT:        %e = arith.negf %[[SUM]] : tensor<1x64xf16>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:     ktdp.inter_tile
