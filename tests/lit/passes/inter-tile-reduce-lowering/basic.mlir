// A reduce-to-one over two tiles whose consumer is tile 1: each tile stores its
// partial into its slot (slot = its rank in the group, ascending tile id) of a
// scratchpad receive buffer, a pipeline on the ring stop copies tile 0's slot into
// tile 1's buffer (table [1, -1]: tile 1 sends nothing), and the fold loads both
// slots and applies the combiner in slot order, from the identity.

// RUN: ktc-opt %s --arch toy -p inter-tile-reduce-lowering | filecheck %s

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#second = affine_set<(t)[g] : (t - 1 == 0)>
func.func @reduce(%s: f16) attributes {grid = [2]} {
  %d = tensor.splat %s : tensor<2x8xf16>
  %z = tensor.splat %s : tensor<2x8xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<2x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    %twice = arith.addf %d, %d : tensor<2x8xf16>
    ktdp.yield_partial %twice : tensor<2x8xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #second, identity(%z : tensor<2x8xf16>) : !ktdp.tile_future<(tensor<2x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<2x8xf16> {
  ^bb0(%lhs: tensor<2x8xf16>, %rhs: tensor<2x8xf16>):
    %m = arith.maximumf %lhs, %rhs : tensor<2x8xf16>
    ktdp.yield_reduced %m : tensor<2x8xf16>
  }
  %e = arith.negf %r : tensor<2x8xf16>
  return
}

// CHECK:       func.func @reduce(%s: f16) attributes {grid = [2]} {
// CHECK-NEXT:    %received = memref.alloc() : memref<4x8xf16, "L1">
// CHECK:         %[[TILE:.+]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %twice = arith.addf %d, %d : tensor<2x8xf16>
// CHECK-NEXT:    %[[SLOT:.+]] = ktdf.tile_table %[[TILE]] {values = array<i64: 0, 1>} : index
// CHECK-NEXT:    %[[ROWS:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ROW:.+]] = arith.muli %[[SLOT]], %[[ROWS]] : index
// CHECK-NEXT:    %[[OWN:.+]] = ktdp.construct_access_tile %received[%[[ROW]], 0]
// CHECK-NEXT:    ktdp.store %twice, %[[OWN]]
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           ktdf.stage depends_in(none) depends_out(%{{.+}}) {
// CHECK-NEXT:        ktdf.data_transfer from %received[%[[ROW]], 0] size [2, 8] to %received[%[[ROW]], 0] size [2, 8] {ktdf.to_tiles = array<i64: 1, -1>}
// CHECK-NEXT:      } {applicable_units = ["RING"]}
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T0:.+]] = ktdp.construct_access_tile %received[0, 0]
// CHECK-NEXT:    %partial0 = ktdp.load %[[T0]]
// CHECK-NEXT:    %[[T1:.+]] = ktdp.construct_access_tile %received[2, 0]
// CHECK-NEXT:    %partial1 = ktdp.load %[[T1]]
// CHECK-NEXT:    %[[M0:.+]] = arith.maximumf %z, %partial0 : tensor<2x8xf16>
// CHECK-NEXT:    %[[M1:.+]] = arith.maximumf %[[M0]], %partial1 : tensor<2x8xf16>
// CHECK-NEXT:    %e = arith.negf %[[M1]] : tensor<2x8xf16>
// CHECK-NOT:     ktdp.inter_tile
