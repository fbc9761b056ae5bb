// A consume whose one producer, tile 0, delivers to both tiles: the producer body is
// inlined and each tile stores its partial into slot 0 (row 0) of a two-slot
// scratchpad buffer; a pipeline on the ring stop copies tile 0's slot 0 into slot 1
// (row 2) of tile 1's buffer (table [1, -1]); the consume becomes a load of slot 1 on
// a tile that receives another's partial and of slot 0 on tile 0, whose partial is its
// own (tile table [0, 1] times the slot's rows).

// RUN: ktc-opt %s --arch toy -p inter-tile-reduce-lowering | filecheck %s

#pair = affine_set<(t)[g] : (t >= 0, -t + 1 >= 0)>
#first = affine_set<(t)[g] : (t == 0)>
func.func @broadcast(%s: f16) attributes {grid = [2]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #first -> <(tensor<2x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    %d = tensor.splat %s : tensor<2x8xf16>
    ktdp.yield_partial %d : tensor<2x8xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pair : !ktdp.tile_future<(tensor<2x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<2x8xf16>
  %e = math.exp %r : tensor<2x8xf16>
  return
}

// CHECK-LABEL: func.func @broadcast(
// CHECK-NEXT:    %delivered = memref.alloc() : memref<4x8xf16, "L1">
// CHECK:         %[[D:.+]] = tensor.splat %s : tensor<2x8xf16>
// CHECK-NEXT:    %[[OWN:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[RECEIVED:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[SLOT:.+]] = ktdp.construct_access_tile %delivered[0, 0]
// CHECK-NEXT:    ktdp.store %[[D]], %[[SLOT]]
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           ktdf.data_transfer from %delivered[%[[OWN]], 0] size [2, 8] to %delivered[%[[RECEIVED]], 0] size [2, 8] {ktdf.to_tiles = array<i64: 1, -1>}
// CHECK-NEXT:    } {applicable_units = ["RING"]}
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[WHICH:.+]] = ktdf.tile_table %{{.+}} {values = array<i64: 0, 1>} : index
// CHECK-NEXT:    %[[ROW:.+]] = arith.muli %[[WHICH]], %[[RECEIVED]] : index
// CHECK-NEXT:    %[[READ:.+]] = ktdp.construct_access_tile %delivered[%[[ROW]], 0]
// CHECK-NEXT:    %[[R:.+]] = ktdp.load %[[READ]] : <2x8xindex> -> tensor<2x8xf16>
// CHECK-NEXT:    math.exp %[[R]] : tensor<2x8xf16>
// CHECK-NOT:     ktdp.inter_tile
