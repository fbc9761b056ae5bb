// Every ktdp verifier and parse diagnostic, each at the line MLIR reports it.
// RUN: ktc-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{tile element type must be 'index', but got: f16}}
func.func @tile_element(%t: !ktdp.access_tile<32x64xf16>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg underlying type must be a builtin type (index, integer, or float), but got: tensor<4xf32>}}
func.func @runtime_arg_type(%a: !ktdp.runtime_arg<tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg granularity must be positive, but got: 0}}
func.func @granularity(%a: !ktdp.runtime_arg<index, granularity=0>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg upperbound must be positive, but got: -1}}
func.func @upperbound(%a: !ktdp.runtime_arg<index, upperbound=-1>) {
  return
}

// -----

// expected-error @+1 {{duplicate 'granularity' keyword}}
func.func @duplicate(%a: !ktdp.runtime_arg<index, granularity=2, granularity=4>) {
  return
}

// -----

// expected-error @+1 {{expected 'granularity' or 'upperbound' keyword}}
func.func @keyword(%a: !ktdp.runtime_arg<index, alignment=2>) {
  return
}

// -----

// expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'index'}}
func.func @partial(%f: !ktdp.tile_future<(index), groups = affine_set<(g) : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have exactly one dimension (g)}}
func.func @groups_dims(%f: !ktdp.tile_future<(tensor<4xf16>), groups = affine_set<(g, h) : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have no symbols}}
func.func @groups_symbols(%f: !ktdp.tile_future<(tensor<4xf16>), groups = affine_set<(g)[n] : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{core affinity is only valid for LX or L0 memory spaces, but got memory space 'HBM' with core = 3}}
func.func @core_hbm(%m: memref<64xf32, #ktdp.spyre_memory_space<HBM, core = 3>>) {
  return
}

// -----

// expected-error @+1 {{core affinity must be non-negative, but got: -2}}
func.func @core_negative(%m: memref<64xf32, #ktdp.spyre_memory_space<LX, core = -2>>) {
  return
}

// -----

// expected-error @+1 {{ct_id is only valid for the ct_local memory space, but got memory space 'global' with ct_id = 1}}
func.func @ct_id_global(%m: memref<64xf32, #ktdp.memory_space<global, ct_id = 1>>) {
  return
}

// -----

// expected-error @+1 {{ct_id must be non-negative, but got: -1}}
func.func @ct_id_negative(%m: memref<64xf32, #ktdp.memory_space<ct_local, ct_id = -1>>) {
  return
}

// -----

// expected-error @+1 {{'ktdp.get_compute_tile_id' op must return at least one index (num tile-grid dims >= 1)}}
"ktdp.get_compute_tile_id"() : () -> ()

// -----

// expected-error @+1 {{'ktdp.get_compute_tile_id' op all results must be IndexType}}
%x, %y = ktdp.get_compute_tile_id : index, i32

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @view_lengths(%addr: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op static_sizes and static_strides must have equal length}}
  %v = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [1] {
    coordinate_set = #set, memory_space = #ktdp.memory_space<global>
  } : memref<32x64xf16>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @view_dynamic_sizes(%addr: index, %n: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op number of dynamic size operands does not match kDynamic entries in static_sizes}}
  %v = "ktdp.construct_memory_view"(%addr, %n) <{coordinate_set = #set, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 1, 0>, static_sizes = array<i64: 32, 64>, static_strides = array<i64: 64, 1>}> : (index, index) -> memref<32x64xf16>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @view_dynamic_strides(%addr: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op number of dynamic stride operands does not match kDynamic entries in static_strides}}
  %v = "ktdp.construct_memory_view"(%addr) <{coordinate_set = #set, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 0, 0>, static_sizes = array<i64: 32, 64>, static_strides = array<i64: -9223372036854775808, 1>}> : (index) -> memref<32x64xf16>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @view_result(%addr: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op result must be a memref type}}
  %v = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #set, memory_space = #ktdp.memory_space<global>
  } : tensor<32x64xf16>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @view_rank(%addr: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op result memref rank does not match sizes/strides length}}
  %v = ktdp.construct_memory_view %addr, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = #set, memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<32x64x8xf16>
  return
}

// -----

func.func @distributed_result(%a: memref<32x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op result must be a memref type}}
  %d = ktdp.construct_distributed_memory_view (%a : memref<32x64xf16>) : tensor<32x64xf16>
  return
}

// -----

func.func @distributed_inputs(%a: memref<32x64xf16>, %b: tensor<32x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op all inputs must be memref types}}
  %d = ktdp.construct_distributed_memory_view (%a, %b : memref<32x64xf16>, tensor<32x64xf16>) : memref<64x64xf16>
  return
}

// -----

func.func @distributed_element(%a: memref<32x64xf16>, %b: memref<32x64xf32>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op all input memrefs must have the same element type as the result}}
  %d = ktdp.construct_distributed_memory_view (%a, %b : memref<32x64xf16>, memref<32x64xf32>) : memref<64x64xf16>
  return
}

// -----

func.func @distributed_rank(%a: memref<32x64xf16>, %b: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op all input memrefs must have the same rank as the result}}
  %d = ktdp.construct_distributed_memory_view (%a, %b : memref<32x64xf16>, memref<64xf16>) : memref<64x64xf16>
  return
}

// -----

func.func @tile_set_missing(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{Access tile set is missing in the operation}}
  %t = ktdp.construct_access_tile %v[%i, %i] {
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

func.func @tile_set_rank(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{Access tile set and Base input dimensions should match}}
  %t = ktdp.construct_access_tile %v[%i, %i] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>
  } : memref<32x64xf16> -> !ktdp.access_tile<2xindex>
  return
}

// -----

func.func @tile_set_symbols(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{access_tile_set has 1 symbols but got 0 symbol operands}}
  %t = ktdp.construct_access_tile %v[%i, %i] {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<32x64xf16> -> !ktdp.access_tile<?x64xindex>
  return
}

// -----

func.func @tile_order_missing(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{Access tile order is missing in the operation}}
  %t = ktdp.construct_access_tile %v[%i, %i] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
  } : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

func.func @tile_order_square(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{Number of input dimensions and output dimensions in the access tile order should match}}
  %t = ktdp.construct_access_tile %v[%i, %i] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0)>
  } : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

func.func @tile_order_rank(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{Number of dimensions in the access tile order and access tile set must match!}}
  %t = ktdp.construct_access_tile %v[%i, %i] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
  } : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_result_rank(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op result type rank (1) must match access_tile_set dimensions (2)}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #set, access_tile_order = #order}
      : memref<32x64xf16> -> !ktdp.access_tile<128xindex>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_base_map_results(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_set dimensions (2) must match base_map dims (1)}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = #order, access_tile_set = #set, base_map = affine_map<(d0) -> (d0)>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<32x64xf16>, index) -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_base_map_operands(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op base_map expects 2 operands but got 1}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = #order, access_tile_set = #set, base_map = affine_map<(d0, d1) -> (d0, d1)>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<32x64xf16>, index) -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

#set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_symbol_operands(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_set has 1 symbols but got 0 symbol operands}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = #order, access_tile_set = #set, base_map = affine_map<(d0) -> (d0, d0)>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<32x64xf16>, index) -> !ktdp.access_tile<?x64xindex>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @tile_order_outputs(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_order must have equal number of inputs (2) and outputs (1)}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = affine_map<(d0, d1) -> (d0)>, access_tile_set = #set, base_map = affine_map<(d0) -> (d0, d0)>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<32x64xf16>, index) -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @tile_order_dims(%v: memref<32x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_order dimensions (1) must match access_tile_set dimensions (2)}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = #set, base_map = affine_map<(d0) -> (d0, d0)>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<32x64xf16>, index) -> !ktdp.access_tile<2x64xindex>
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @indirect_variables(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{error parsing intermediate_variables}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m %x[ind(%idx[%m])] {
    variables_space_set = #set, variables_space_order = #order
  } : memref<16xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @indirect_comma(%x: memref<16x16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{expecting a comma between subscripts}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) %x[ind(%idx[%m]) (%m)] {
    variables_space_set = #set, variables_space_order = #order
  } : memref<16x16xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @indirect_subscript(%x: memref<16x16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{unexpected token in subscript list, expected 'ind', '(', or ']'}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) %x[ind(%idx[%m]), %m] {
    variables_space_set = #set, variables_space_order = #order
  } : memref<16x16xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @indirect_types(%x: memref<16x16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{expected 3 types (base + 2 indirect memrefs), but got 2}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) %x[ind(%idx[%m]), ind(%idx[%m])] {
    variables_space_set = #set, variables_space_order = #order
  } : memref<16x16xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @indirect_symbols(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{variables_space_set has 1 symbols but got 0 symbol operands}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) %x[ind(%idx[%m])] {
    variables_space_set = #set, variables_space_order = #order
  } : memref<16xf16>, memref<8xi32> -> !ktdp.access_tile<?xindex>
  return
}

// -----

func.func @indirect_space_order(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op variables_space_set dimensions (1) must match variables_space_order inputs (2)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_order_square(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op variables_space_order must have equal number of inputs (1) and outputs (2)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0, d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_variables(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of intermediate variables (2) must match variables_space_set dimensions (1)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index, %k: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_space_symbols(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op variables_space_set has 1 symbols but got 0 symbol operands}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<?xindex>
  return
}

// -----

func.func @indirect_kinds_size(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op per_dim_subscript_kinds size (2) must match per_dim_subscript_maps size (1)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_base_ranked(%x: memref<*xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op base must be a ranked memref or tensor type}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<*xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_subscripts(%x: memref<16x16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of subscripts (1) must match base rank (2)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16x16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_kinds_bool(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op per_dim_subscript_kinds must contain BoolAttr elements}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [1 : i32], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_indirect_count(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of indirect dimensions (0) must match number of indirect memrefs (1)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_map_dims(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op subscript map for dimension 0 has 2 dimensions, but expected 1 (captured_variables + intermediate_variables)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0, d1) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_indirect_results(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op indirect subscript map for dimension 0 produces 2 results, but indirect memref has rank 1}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0, d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_direct_results(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op direct subscript map for dimension 0 must produce exactly 1 result, but produces 2}}
  %t = "ktdp.construct_indirect_access_tile"(%x) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0, d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @indirect_result_rank(%x: memref<16xf16>, %idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op result type rank (2) must match variables_space_set dimensions (1)}}
  %t = "ktdp.construct_indirect_access_tile"(%x, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], variables_space_order = affine_map<(d0) -> (d0)>, variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>}> ({
  ^bb0(%m: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<16xf16>, memref<8xi32>) -> !ktdp.access_tile<8x1xindex>
  return
}

// -----

func.func @load_result(%t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{'ktdp.load' op result must be a ranked tensor}}
  %d = ktdp.load %t : <32x64xindex> -> memref<32x64xf16>
  return
}

// -----

func.func @load_shape(%t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{'ktdp.load' op access tile shape must match result tensor shape}}
  %d = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<16x64xf16>
  return
}

// -----

func.func @store_data(%d: memref<32x64xf16>, %t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{'ktdp.store' op data_tile must be a ranked tensor}}
  ktdp.store %d, %t : memref<32x64xf16>, <32x64xindex>
  return
}

// -----

func.func @store_shape(%d: tensor<16x64xf16>, %t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{'ktdp.store' op data tile shape must match access tile shape}}
  ktdp.store %d, %t : tensor<16x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}

// -----

func.func @extract_value(%a: !ktdp.runtime_arg<i32, granularity=4>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op result type (index) must match runtime_arg underlying type (i32) when extracting value}}
  %v = ktdp.runtime_arg_extract value from %a : <i32, granularity=4> -> index
  return
}

// -----

func.func @extract_granularity(%a: !ktdp.runtime_arg<index>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op cannot extract granularity from runtime_arg that doesn't have one}}
  %g = ktdp.runtime_arg_extract granularity from %a : <index> -> index
  return
}

// -----

func.func @extract_upperbound(%a: !ktdp.runtime_arg<index, granularity=4>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op cannot extract upperbound from runtime_arg that doesn't have one}}
  %u = ktdp.runtime_arg_extract upperbound from %a : <index, granularity=4> -> index
  return
}

// -----

func.func @extract_granularity_type(%a: !ktdp.runtime_arg<index, granularity=4>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op result type must be index when extracting granularity, but got i32}}
  %g = ktdp.runtime_arg_extract granularity from %a : <index, granularity=4> -> i32
  return
}

// -----

func.func @extract_upperbound_type(%a: !ktdp.runtime_arg<index, upperbound=300>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op result type must be index when extracting upperbound, but got i64}}
  %u = ktdp.runtime_arg_extract upperbound from %a : <index, upperbound=300> -> i64
  return
}

// -----

#four = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @produce_argument(%d: tensor<1x8xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer region must take a single `index` group-id argument}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: i32):
    ktdp.yield_partial %d : tensor<1x8xf16>
  }
  return
}

// -----

func.func @produce_symbol(%d: tensor<1x8xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op `producer_tiles_per_group` must have exactly one symbol (the group index g)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i) : (i >= 0, -i + 3 >= 0)> -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x8xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @produce_yield_count(%d: tensor<1x8xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op yield_partial yields 2 values but the future carries 1 partial type(s)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d, %d : tensor<1x8xf16>, tensor<1x8xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @produce_yield_type(%d: tensor<1x8xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op yield_partial operand #0 type tensor<1x8xf32> does not match future partial type tensor<1x8xf16>}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x8xf32>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @produce_older_types(%d: tensor<1x8xf16>) {
  // The older spelling names the partial types twice; they must agree.
  // expected-error @+1 {{the types before '->' must be the partial types of the tile_future}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four : tensor<1x8xf32> -> !ktdp.tile_future<tensor<1x8xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x8xf16>
  }
  return
}

// -----

func.func @produce_without_producers(%d: tensor<1x8xf16>) {
  // expected-error @+1 {{expected 'producer_tiles_per_group'}}
  %f = ktdp.inter_tile_produce {note} -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x8xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @produce_overlap(%d: tensor<1x8xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer_tiles_per_group for groups 0 and 1 are not disjoint}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x8xf16>
  }
  return
}

// -----

func.func @consume_results(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op failed to verify that result types must match future partial types}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)> : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf16>
  return
}

// -----

func.func @consume_symbol(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `consumer_tiles_per_group` must have exactly one symbol (the group index g)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i) : (i == 0)> : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16>
  return
}

// -----

func.func @consume_dimension(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `consumer_tiles_per_group` must have exactly one dimension (the tile id i)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i, j)[g] : (i == 0, j == 0)> : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16>
  return
}

// -----

func.func @dependency_symbols(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `producer_dependency_per_consumer` must have one symbol (c) or two symbols (c, g)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, producer_dependency_per_consumer = affine_set<(p)[c, g, h] : (p - c == 0)> : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16>
  return
}

// -----

func.func @dependency_dimension(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `producer_dependency_per_consumer` must have exactly one dimension (the producer tile id p)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, producer_dependency_per_consumer = affine_set<()[c] : (c == 0)> : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16>
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_identity(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<1x8xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op failed to verify that identity types must match result types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%z : tensor<1x8xf32>) : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
    ktdp.yield_reduced %a : tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_rank(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // A result may drop or add dimensions of extent 1 (tensor<8xf16> is fine), not others.
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op failed to verify that result types must match future partial types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity() : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<2x4xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
    ktdp.yield_reduced %a : tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_result_element(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op failed to verify that result types must match future partial types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity() : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
    ktdp.yield_reduced %a : tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_identity_shape(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<1x4xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op failed to verify that identity types must match result types (the partial types, up to dimensions of extent 1)}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%z : tensor<1x4xf16>) : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
    ktdp.yield_reduced %a : tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_arguments(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op reducer region must take 2*1 arguments, got 3}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity() : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>, %c: tensor<1x8xf16>):
    ktdp.yield_reduced %a : tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_argument_types(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op reducer region argument pair #0 must both have partial type tensor<1x8xf16>}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity() : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf32>):
    ktdp.yield_reduced %a : tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_yield_count(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op yield_reduced yields 2 values but expected 1}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity() : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
    ktdp.yield_reduced %a, %b : tensor<1x8xf16>, tensor<1x8xf16>
  }
  return
}

// -----

#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
func.func @reduce_yield_type(%f: !ktdp.tile_future<(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>>, %w: tensor<1x8xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op yield_reduced operand #0 type tensor<1x8xf32> must match partial type tensor<1x8xf16>}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity() : <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x8xf16> {
  ^bb0(%a: tensor<1x8xf16>, %b: tensor<1x8xf16>):
    ktdp.yield_reduced %w : tensor<1x8xf32>
  }
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @indirect_symbol(%x: memref<16xf16>, %idx: memref<8xi32>, %n: index) {
  // expected-error @+1 {{symbols are not allowed in indirect access tile subscripts}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) %x[ind(%idx[%m + symbol(%n)])] {
    variables_space_set = #set, variables_space_order = #order
  } : memref<16xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

// expected-error @+1 {{expected an integer set for `groups`}}
func.func @groups_set(%f: !ktdp.tile_future<(tensor<4xf16>), groups = affine_map<(g) -> (g)>>) {
  return
}

// -----

func.func @produce_set(%d: tensor<1x8xf16>) {
  // expected-error @+1 {{expected an integer set for 'producer_tiles_per_group'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = [0, 1] -> <(tensor<1x8xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<1x8xf16>
  }
  return
}

// -----

func.func @stripped_tile_element(%t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{tile element type must be 'index', but got: f16}}
  %d = ktdp.load %t : <32x64xf16> -> tensor<32x64xf16>
  return
}
