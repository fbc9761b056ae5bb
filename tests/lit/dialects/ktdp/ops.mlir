// Every ktdp type, attribute and op round-trips through ktc-opt, in custom and in
// generic form; ktdp types parse both in full and with the `!ktdp.` prefix stripped,
// and print stripped where MLIR's declarative formats strip them.
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows_n = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>

func.func @types(%a: !ktdp.access_tile<32x64xindex>, %b: !ktdp.access_tile<?x64xindex>,
                 %c: !ktdp.access_tile<index>, %d: !ktdp.runtime_arg<index>,
                 %e: !ktdp.runtime_arg<index, upperbound=300, granularity=3>,
                 %f: !ktdp.runtime_arg<f32, upperbound=100>,
                 %g: !ktdp.tile_future<(tensor<1x64xf16>, tensor<1x64xi32>), groups = affine_set<(g) : (g - 1 == 0)>>,
                 %h: !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>>) {
  return
}
// CHECK-LABEL: func.func @types
// CHECK-SAME: !ktdp.access_tile<32x64xindex>, %{{.*}}: !ktdp.access_tile<?x64xindex>, %{{.*}}: !ktdp.access_tile<index>
// CHECK-SAME: !ktdp.runtime_arg<index>, %{{.*}}: !ktdp.runtime_arg<index, granularity=3, upperbound=300>
// CHECK-SAME: !ktdp.runtime_arg<f32, upperbound=100>
// CHECK-SAME: !ktdp.tile_future<(tensor<1x64xf16>, tensor<1x64xi32>), groups = #[[$PAIR:set[0-9]*]]>
// CHECK-SAME: !ktdp.tile_future<(tensor<1x128xf16>), groups = #[[$ONE:set[0-9]*]]>)

func.func @memory_spaces(%addr: index) {
  %g = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
  } : memref<32x64xf16>
  %l = ktdp.construct_memory_view %addr, sizes : [32, 64], strides : [1, 32] {
    memory_space = #ktdp.memory_space<ct_local, ct_id = 1>, coordinate_set = #rows
  } : memref<32x64xf16>
  %u = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local>
  } : memref<32x64xf16>
  %hbm = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<32x64xf16>
  %lx = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<LX, core = 7>
  } : memref<32x64xf16>
  %l0 = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<L0>
  } : memref<32x64xf16>
  %any = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.spyre_memory_space<unspecified>
  } : memref<32x64xf16>
  return
}
// CHECK-LABEL: func.func @memory_spaces
// CHECK: memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
// CHECK: sizes: [32, 64], strides: [1, 32] {coordinate_set = #{{set[0-9]*}}, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK: memory_space = #ktdp.memory_space<ct_local>}
// CHECK: memory_space = #ktdp.spyre_memory_space<HBM>}
// CHECK: memory_space = #ktdp.spyre_memory_space<LX, core = 7>}
// CHECK: memory_space = #ktdp.spyre_memory_space<L0>}
// CHECK: memory_space = #ktdp.spyre_memory_space<unspecified>}

func.func @views_and_tiles(%addr: index, %n: index, %i: index, %j: index) {
  %ids:2 = ktdp.get_compute_tile_id : index, index
  %x = ktdp.get_compute_tile_id {note} : index
  %a = ktdp.construct_memory_view %addr, sizes: [%n, 64], strides: [64, 1] {
    coordinate_set = #rows_n, memory_space = #ktdp.memory_space<global>
  } : memref<?x64xf16>
  %b = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
  } : memref<32x64xf16>
  %d = ktdp.construct_distributed_memory_view (%b, %b : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
  %e = ktdp.construct_distributed_memory_view () : memref<64x64xf16>
  %t0 = ktdp.construct_access_tile %b[%ids#0 * 2, %j + 4] {
    access_tile_set = #tile, access_tile_order = #id2
  } : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
  %t1 = ktdp.construct_access_tile %a[%i, %i] symbols(%n) {
    access_tile_order = #swap, access_tile_set = #rows_n
  } : memref<?x64xf16> -> <64x?xindex>
  %t2 = ktdp.construct_access_tile %d[0, %i - 1 + symbol(%n)] {
    access_tile_set = #tile, access_tile_order = #id2
  } : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %v = ktdp.load %t0 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %w = ktdp.load %t2 {nontemporal} : <2x64xindex> -> tensor<2x64xf16>
  ktdp.store %v, %t2 : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  ktdp.store %w, %t0 : tensor<2x64xf16>, <2x64xindex>
  return
}
// CHECK-LABEL: func.func @views_and_tiles
// CHECK-SAME: (%[[ADDR:[^:]*]]: index, %[[N:[^:]*]]: index, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK-NEXT: %[[IDS:[^:]*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK-NEXT: ktdp.get_compute_tile_id {note} : index
// CHECK-NEXT: %[[A:.*]] = ktdp.construct_memory_view %[[ADDR]], sizes: [%[[N]], 64], strides: [64, 1] {coordinate_set = #[[$ROWS_N:set[0-9]*]], memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
// CHECK-NEXT: %[[B:.*]] = ktdp.construct_memory_view %[[ADDR]], sizes: [32, 64]
// CHECK-NEXT: %[[D:.*]] = ktdp.construct_distributed_memory_view(%[[B]], %[[B]] : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
// CHECK-NEXT: ktdp.construct_distributed_memory_view() : memref<64x64xf16>
// CHECK-NEXT: %[[T0:.*]] = ktdp.construct_access_tile %[[B]][%[[IDS]]#0 * 2, %[[J]] + 4] {access_tile_order = #[[$ID2:map[0-9]*]], access_tile_set = #[[$TILE:set[0-9]*]]} : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
// CHECK-NEXT: ktdp.construct_access_tile %[[A]][%[[I]], %[[I]]] symbols(%[[N]]) {access_tile_order = #{{map[0-9]*}}, access_tile_set = #[[$ROWS_N]]} : memref<?x64xf16> -> !ktdp.access_tile<64x?xindex>
// CHECK-NEXT: %[[T2:.*]] = ktdp.construct_access_tile %[[D]][0, %[[I]] + symbol(%[[N]]) - 1] {access_tile_order = #[[$ID2]], access_tile_set = #[[$TILE]]}
// CHECK-NEXT: %[[V:.*]] = ktdp.load %[[T0]] : <2x64xindex> -> tensor<2x64xf16>
// CHECK-NEXT: %[[W:.*]] = ktdp.load %[[T2]] {nontemporal} : <2x64xindex> -> tensor<2x64xf16>
// CHECK-NEXT: ktdp.store %[[V]], %[[T2]] : tensor<2x64xf16>, <2x64xindex>
// CHECK-NEXT: ktdp.store %[[W]], %[[T0]] : tensor<2x64xf16>, <2x64xindex>

func.func @indirect(%x: memref<100x16xf16>, %idx: memref<4x32xi32>, %off: index, %rows: index) {
  %t0 = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %x[ind(%idx[%off + %m, %k floordiv 2]), (%k mod 16)] {
    variables_space_set = #tile, variables_space_order = #swap
  } : memref<100x16xf16>, memref<4x32xi32> -> !ktdp.access_tile<64x2xindex>
  %t1 = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k)
      %x[(%m), ind(%idx[0, %k])] symbols(%rows) {
    variables_space_set = #rows_n, variables_space_order = #id2
  } : memref<100x16xf16>, memref<4x32xi32> -> <?x64xindex>
  %t2 = ktdp.construct_indirect_access_tile intermediate_variables()
      %x[ind(%idx[%off, 0]), (%off)] {
    variables_space_set = affine_set<() : (0 == 0)>, variables_space_order = affine_map<() -> ()>
  } : memref<100x16xf16>, memref<4x32xi32> -> !ktdp.access_tile<index>
  return
}
// CHECK-LABEL: func.func @indirect
// CHECK-SAME: (%[[X:[^:]*]]: memref<100x16xf16>, %[[IDX:[^:]*]]: memref<4x32xi32>, %[[OFF:[^:]*]]: index, %[[ROWS:[^:]*]]: index)
// CHECK-NEXT: ktdp.construct_indirect_access_tile intermediate_variables(%[[M:.*]], %[[K:.*]]) %[[X]][ind(%[[IDX]][%[[OFF]] + %[[M]], %[[K]] floordiv 2]), (%[[K]] mod 16)] {variables_space_order = #{{map[0-9]*}}, variables_space_set = #[[$TILE]]} : memref<100x16xf16>, memref<4x32xi32> -> !ktdp.access_tile<64x2xindex>
// CHECK-NEXT: ktdp.construct_indirect_access_tile intermediate_variables(%[[M1:.*]], %[[K1:.*]]) %[[X]][(%[[M1]]), ind(%[[IDX]][0, %[[K1]]])] symbols(%[[ROWS]]) {variables_space_order = #[[$ID2]], variables_space_set = #[[$ROWS_N]]} : memref<100x16xf16>, memref<4x32xi32> -> !ktdp.access_tile<?x64xindex>
// CHECK-NEXT: ktdp.construct_indirect_access_tile intermediate_variables() %[[X]][ind(%[[IDX]][%[[OFF]], 0]), (%[[OFF]])] {variables_space_order = #{{map[0-9]*}}, variables_space_set = #{{set[0-9]*}}} : memref<100x16xf16>, memref<4x32xi32> -> !ktdp.access_tile<index>

func.func @runtime_args(%m: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %s: !ktdp.runtime_arg<i32, granularity=8>) {
  %v = ktdp.runtime_arg_extract value from %m : !ktdp.runtime_arg<index, granularity=3, upperbound=300> -> index
  %g = ktdp.runtime_arg_extract granularity from %m : <index, granularity=3, upperbound=300> -> index
  %u = ktdp.runtime_arg_extract upperbound from %m : <index, upperbound=300, granularity=3> {note} -> index
  %w = ktdp.runtime_arg_extract value from %s : <i32, granularity=8> -> i32
  return
}
// CHECK-LABEL: func.func @runtime_args
// CHECK-SAME: (%[[RM:[^:]*]]: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %[[RS:[^:]*]]: !ktdp.runtime_arg<i32, granularity=8>)
// CHECK-NEXT: ktdp.runtime_arg_extract value from %[[RM]] : <index, granularity=3, upperbound=300> -> index
// CHECK-NEXT: ktdp.runtime_arg_extract granularity from %[[RM]] : <index, granularity=3, upperbound=300> -> index
// CHECK-NEXT: ktdp.runtime_arg_extract upperbound from %[[RM]] : <index, granularity=3, upperbound=300> {note} -> index
// CHECK-NEXT: ktdp.runtime_arg_extract value from %[[RS]] : <i32, granularity=8> -> i32

#four = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
#pairs = affine_set<(i)[g] : (i - g * 2 >= 0, -i + g * 2 + 1 >= 0)>
#first_of_pair = affine_set<(i)[g] : (i - g * 2 == 0)>
#from_self = affine_set<(p)[c] : (p - c == 0)>
func.func @inter_tile(%d: tensor<1x64xf16>, %n: tensor<1x64xi32>, %z: tensor<1x64xf16>) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%z : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  %p = ktdp.inter_tile_produce producer_tiles_per_group = #pairs {note} -> !ktdp.tile_future<(tensor<1x64xf16>, tensor<1x64xi32>), groups = affine_set<(g) : (g - 1 == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d, %n : tensor<1x64xf16>, tensor<1x64xi32>
  }
  %c:2 = ktdp.inter_tile_consume(%p) consumer_tiles_per_group = #first_of_pair, producer_dependency_per_consumer = #from_self : <(tensor<1x64xf16>, tensor<1x64xi32>), groups = affine_set<(g) : (g - 1 == 0)>> -> tensor<1x64xf16>, tensor<1x64xi32>
  %b:2 = ktdp.inter_tile_consume(%p) consumer_tiles_per_group = #pairs : <(tensor<1x64xf16>, tensor<1x64xi32>), groups = affine_set<(g) : (g - 1 == 0)>> -> tensor<1x64xf16>, tensor<1x64xi32>
  %q:2 = ktdp.inter_tile_reduce(%p) consumer_tiles_per_group = #first_of_pair, producer_dependency_per_consumer = #from_self, identity() : <(tensor<1x64xf16>, tensor<1x64xi32>), groups = affine_set<(g) : (g - 1 == 0)>> -> tensor<1x64xf16>, tensor<1x64xi32> {
  ^bb0(%a: tensor<1x64xf16>, %ai: tensor<1x64xi32>, %a2: tensor<1x64xf16>, %ai2: tensor<1x64xi32>):
    ktdp.yield_reduced %a, %ai : tensor<1x64xf16>, tensor<1x64xi32>
  }
  return
}
// CHECK-LABEL: func.func @inter_tile
// CHECK-SAME: (%[[PD:[^:]*]]: tensor<1x64xf16>, %[[PN:[^:]*]]: tensor<1x64xi32>, %[[PZ:[^:]*]]: tensor<1x64xf16>)
// CHECK-NEXT: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[$FOUR:set[0-9]*]] -> <(tensor<1x64xf16>), groups = #[[$ONE]]> {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: ktdp.yield_partial %[[PD]] : tensor<1x64xf16>
// CHECK-NEXT: }
// CHECK-NEXT: ktdp.inter_tile_reduce(%[[F]]) consumer_tiles_per_group = #[[$FOUR]], identity(%[[PZ]] : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = #[[$ONE]]> -> tensor<1x64xf16> {
// CHECK-NEXT: ^bb0(%[[LHS:.*]]: tensor<1x64xf16>, %[[RHS:.*]]: tensor<1x64xf16>):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[LHS]], %[[RHS]] : tensor<1x64xf16>
// CHECK-NEXT: ktdp.yield_reduced %[[S]] : tensor<1x64xf16>
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[$PAIRS:set[0-9]*]] {note} -> <(tensor<1x64xf16>, tensor<1x64xi32>), groups = #[[$PAIR]]> {
// CHECK: ktdp.yield_partial %[[PD]], %[[PN]] : tensor<1x64xf16>, tensor<1x64xi32>
// CHECK: ktdp.inter_tile_consume(%[[P]]) consumer_tiles_per_group = #[[$FIRST:set[0-9]*]], producer_dependency_per_consumer = #[[$SELF:set[0-9]*]] : <(tensor<1x64xf16>, tensor<1x64xi32>), groups = #[[$PAIR]]> -> tensor<1x64xf16>, tensor<1x64xi32>
// CHECK-NEXT: ktdp.inter_tile_consume(%[[P]]) consumer_tiles_per_group = #[[$PAIRS]] : <(tensor<1x64xf16>, tensor<1x64xi32>), groups = #[[$PAIR]]> -> tensor<1x64xf16>, tensor<1x64xi32>
// CHECK-NEXT: ktdp.inter_tile_reduce(%[[P]]) consumer_tiles_per_group = #[[$FIRST]], producer_dependency_per_consumer = #[[$SELF]], identity() : <(tensor<1x64xf16>, tensor<1x64xi32>), groups = #[[$PAIR]]> -> tensor<1x64xf16>, tensor<1x64xi32> {
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: tensor<1x64xf16>, %[[AI:[^:]*]]: tensor<1x64xi32>, %{{.*}}: tensor<1x64xf16>, %{{.*}}: tensor<1x64xi32>):
// CHECK-NEXT: ktdp.yield_reduced %[[A]], %[[AI]] : tensor<1x64xf16>, tensor<1x64xi32>
