// The optional operands, attributes and alternative spellings of the ktdp ops and
// types that anchor-ktir §1 names and ops.mlir does not already show, one op at a
// time, round-trip through ktc-opt in custom and in generic form, and real MLIR
// accepts the generic form: several results of get_compute_tile_id named one by one;
// views with dynamic strides, extra attributes and rank 0; a distributed view written
// with a space before its operands; access tiles on a tensor, with literal
// subscripts, two symbols and rank 0; indirect tiles with two indirect dimensions
// and captured variables; access tile types with zero, four and all-dynamic
// dimensions; a float runtime argument.
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | ktc-opt | filecheck %s %}

#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#nm = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @tile_ids
// CHECK-NEXT:  {{.*}} = ktdp.get_compute_tile_id : index, index, index
// CHECK-NEXT:  %{{.*}} = ktdp.get_compute_tile_id : index
func.func @tile_ids() attributes {grid = [2, 2, 2]} {
  %x, %y, %z = ktdp.get_compute_tile_id : index, index, index
  %only_x = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @views
// CHECK-NEXT:  %[[V:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [32, 64], strides: [%{{.*}}, 1] {coordinate_set = #{{set[0-9]*}}, memory_space = #ktdp.memory_space<global>, tag = "x"} : memref<32x64xf16, strided<[?, 1]>>
// CHECK-NEXT:  ktdp.construct_memory_view %{{.*}}, sizes: [], strides: [] {coordinate_set = #{{set[0-9]*}}, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<f16>
// CHECK-NEXT:  ktdp.construct_distributed_memory_view(%[[V]] : memref<32x64xf16, strided<[?, 1]>>) {tag} : memref<32x64xf16>
func.func @views(%a: index, %s: index) {
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [%s, 1] {
    coordinate_set = #box, memory_space = #ktdp.memory_space<global>, tag = "x"
  } : memref<32x64xf16, strided<[?, 1]>>
  %scalar = ktdp.construct_memory_view %a, sizes: [], strides: [] {
    coordinate_set = affine_set<() : (0 == 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>
  } : memref<f16>
  %d = ktdp.construct_distributed_memory_view (%v : memref<32x64xf16, strided<[?, 1]>>) {tag} : memref<32x64xf16>
  return
}

// CHECK-LABEL: func.func @access_tiles
// CHECK-NEXT:  ktdp.construct_access_tile %{{.*}}[%{{.*}}, 0] {access_tile_order = #{{map[0-9]*}}, access_tile_set = #{{set[0-9]*}}} : tensor<8x64xf16> -> !ktdp.access_tile<1x64xindex>
// CHECK-NEXT:  ktdp.construct_access_tile %{{.*}}[0, 0] symbols(%[[N:[^,]*]], %[[M:[^)]*]]) {access_tile_order = #{{map[0-9]*}}, access_tile_set = #{{set[0-9]*}}, tag} : memref<32x64xf16> -> !ktdp.access_tile<?x?xindex>
// CHECK-NEXT:  ktdp.construct_access_tile %{{.*}}[] {access_tile_order = #{{map[0-9]*}}, access_tile_set = #{{set[0-9]*}}} : memref<f16> -> !ktdp.access_tile<index>
func.func @access_tiles(%x: tensor<8x64xf16>, %v: memref<32x64xf16>, %p: memref<f16>, %i: index, %n: index, %m: index) {
  %t = ktdp.construct_access_tile %x[%i, 0] {
    access_tile_set = #row, access_tile_order = #id
  } : tensor<8x64xf16> -> <1x64xindex>
  %u = ktdp.construct_access_tile %v[0, 0] symbols(%n, %m) {
    access_tile_set = #nm, access_tile_order = #id, tag
  } : memref<32x64xf16> -> !ktdp.access_tile<?x?xindex>
  %w = ktdp.construct_access_tile %p[] {
    access_tile_set = affine_set<() : (0 == 0)>, access_tile_order = affine_map<() -> ()>
  } : memref<f16> -> !ktdp.access_tile<index>
  return
}

// CHECK-LABEL: func.func @indirect_tiles
// CHECK-NEXT:  ktdp.construct_indirect_access_tile intermediate_variables(%[[A:.*]], %[[B:.*]]) %{{.*}}[ind(%[[I1:.*]][%[[A]], %[[B]]]), ind(%[[I2:.*]][%[[A]], %[[B]]])] {tag, variables_space_order = #{{map[0-9]*}}, variables_space_set = #{{set[0-9]*}}} : memref<64x64xf16>, memref<2x64xi32>, memref<2x64xi32> -> !ktdp.access_tile<2x64xindex>
// CHECK-NEXT:  ktdp.construct_indirect_access_tile intermediate_variables(%[[C:.*]]) %{{.*}}[ind(%[[I1]][0, %[[C]]]), (%{{.*}} + %[[OFF:[^)]*]])] {variables_space_order = #{{map[0-9]*}}, variables_space_set = #{{set[0-9]*}}} : tensor<64x64xf16>, memref<2x64xi32> -> !ktdp.access_tile<64xindex>
func.func @indirect_tiles(%x: memref<64x64xf16>, %xt: tensor<64x64xf16>, %idx1: memref<2x64xi32>, %idx2: memref<2x64xi32>, %i: index, %offset: index) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %x[ind(%idx1[%m, %k]), ind(%idx2[%m, %k])] {
    variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    variables_space_order = #id, tag
  } : memref<64x64xf16>, memref<2x64xi32>, memref<2x64xi32> -> !ktdp.access_tile<2x64xindex>
  %u = ktdp.construct_indirect_access_tile intermediate_variables(%k) %xt[ind(%idx1[0, %k]), (%i + %offset)] {
    variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    variables_space_order = affine_map<(d0) -> (d0)>
  } : tensor<64x64xf16>, memref<2x64xi32> -> <64xindex>
  return
}

// CHECK-LABEL: func.func @types
// CHECK-SAME:  !ktdp.access_tile<0x42xindex>, %{{.*}}: !ktdp.access_tile<1x2x3x4xindex>, %{{.*}}: !ktdp.access_tile<?x?xindex>, %{{.*}}: !ktdp.runtime_arg<f16, granularity=2>
// CHECK-NEXT:  ktdp.runtime_arg_extract value from %{{.*}} : <f16, granularity=2> -> f16
func.func @types(%a: !ktdp.access_tile<0x42xindex>, %b: !ktdp.access_tile<1x2x3x4xindex>,
                 %c: !ktdp.access_tile<?x?xindex>, %r: !ktdp.runtime_arg<f16, granularity=2>) {
  %v = ktdp.runtime_arg_extract value from %r : !ktdp.runtime_arg<f16, granularity=2> -> f16
  return
}
