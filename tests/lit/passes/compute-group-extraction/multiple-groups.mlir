// Groups are the connected load-compute-store chains of a block: independent
// chains become separate programs called in order; a value used by two stores, a
// compute result shared by two chains, or a loop that reduces loaded data keeps
// its chains together; a store of a constant is a group of its own; chains whose
// op ranges interleave (or enclose a loop of other accesses) merge into one
// group, so every memory access keeps its place in program order.

// RUN: ktc-opt %s --split-input-file -p compute-group-extraction --arch toy | filecheck %s

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @in_sequence(%X: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t1 = ktdp.construct_access_tile %view[%c64] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t2 = ktdp.construct_access_tile %view[%c128] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %ea = math.exp %a : tensor<64xf16>
  ktdp.store %ea, %t1 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  %b = ktdp.load %t1 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %sb = math.sqrt %b : tensor<64xf16>
  ktdp.store %sb, %t2 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// The second chain reads what the first wrote: two programs, called in order.
// CHECK-LABEL: func.func @in_sequence(%X: index) {
// CHECK-NEXT:    call @local_schedule_0(%X) : (index) -> ()
// CHECK-NEXT:    call @local_schedule_1(%X) : (index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_0(%X: index) attributes {grid = [1]} {
// CHECK:         %a = ktdp.load %t0
// CHECK-NEXT:    %ea = math.exp %a
// CHECK-NEXT:    ktdp.store %ea, %t1
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_1(%X: index) attributes {grid = [1]} {
// CHECK:         %b = ktdp.load %t1
// CHECK-NEXT:    %sb = math.sqrt %b
// CHECK-NEXT:    ktdp.store %sb, %t2
// CHECK-NEXT:    return

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @shared_values(%X: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t1 = ktdp.construct_access_tile %view[%c64] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t2 = ktdp.construct_access_tile %view[%c128] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t3 = ktdp.construct_access_tile %view[%c192] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %ea = math.exp %a : tensor<64xf16>
  ktdp.store %ea, %t1 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  ktdp.store %ea, %t2 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  %b = ktdp.load %t3 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %sum = arith.addf %ea, %b : tensor<64xf16>
  ktdp.store %sum, %t3 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// %ea feeds two stores and a second chain: one program with all three stores.
// CHECK-LABEL: func.func @shared_values(%X: index) {
// CHECK-NEXT:    call @local_schedule_0(%X) : (index) -> ()
// CHECK-NEXT:    return
// CHECK-NOT:   @local_schedule_1
// CHECK:       func.func @local_schedule_0(%X: index) attributes {grid = [1]} {
// CHECK:         %a = ktdp.load %t0
// CHECK-NEXT:    %ea = math.exp %a
// CHECK-NEXT:    ktdp.store %ea, %t1
// CHECK-NEXT:    ktdp.store %ea, %t2
// CHECK-NEXT:    %b = ktdp.load %t3
// CHECK-NEXT:    %sum = arith.addf %ea, %b
// CHECK-NEXT:    ktdp.store %sum, %t3
// CHECK-NEXT:    return

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @constant_store(%X: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %t0 = ktdp.construct_access_tile %view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %t1 = ktdp.construct_access_tile %view[%c64] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %zeros = arith.constant dense<0.0> : tensor<64xf16>
  ktdp.store %zeros, %t0 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  %a = ktdp.load %t0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  ktdp.store %a, %t1 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// A store before any load fills memory with a constant: a group of its own.
// CHECK-LABEL: func.func @constant_store(%X: index) {
// CHECK-NEXT:    call @local_schedule_0(%X) : (index) -> ()
// CHECK-NEXT:    call @local_schedule_1(%X) : (index) -> ()
// CHECK:       func.func @local_schedule_0(%X: index) attributes {grid = [1]} {
// CHECK:         %zeros = arith.constant dense<0.000000e+00> : tensor<64xf16>
// CHECK-NEXT:    ktdp.store %zeros, %t0
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_1(%X: index) attributes {grid = [1]} {
// CHECK-NOT:     arith.constant dense
// CHECK:         %a = ktdp.load %t0
// CHECK-NEXT:    ktdp.store %a, %t1

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @interleaved(%X: index, %Y: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %x0 = ktdp.construct_access_tile %X_view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %x1 = ktdp.construct_access_tile %X_view[%c64] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %y0 = ktdp.construct_access_tile %Y_view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %y1 = ktdp.construct_access_tile %Y_view[%c64] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %x0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %b = ktdp.load %y0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  ktdp.store %a, %y1 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  ktdp.store %b, %x1 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// Two chains whose loads come before both stores (the views may alias): one
// program that keeps the original order.
// CHECK-LABEL: func.func @interleaved(%X: index, %Y: index) {
// CHECK-NEXT:    call @local_schedule_0(%X, %Y) : (index, index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1]} {
// CHECK:         %a = ktdp.load %x0
// CHECK-NEXT:    %b = ktdp.load %y0
// CHECK-NEXT:    ktdp.store %a, %y1
// CHECK-NEXT:    ktdp.store %b, %x1
// CHECK-NEXT:    return

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#tile = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0) : (d0 == 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#order1 = affine_map<(d0) -> (d0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @reduction_loop(%X: index, %S: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %row = ktdp.get_compute_tile_id : index
  %X_view = ktdp.construct_memory_view %X, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %S_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #sums, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %partial = scf.for %j = %c0 to %c4096 step %c64 iter_args(%acc = %zero) -> (tensor<1x64xf16>) {
    %x_tile = ktdp.construct_access_tile %X_view[%row, %j] {access_tile_set = #tile, access_tile_order = #order} : memref<64x4096xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %next = arith.addf %acc, %x : tensor<1x64xf16>
    scf.yield %next : tensor<1x64xf16>
  }
  %f0 = arith.constant 0.0 : f16
  %init = tensor.splat %f0 : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%partial : tensor<1x64xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %s_tile = ktdp.construct_access_tile %S_view[%row] {access_tile_set = #row, access_tile_order = #order1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %sum, %s_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}

// The loop that accumulates loaded tiles belongs to the group of the store its
// result reaches: one program holding the loop, the reduce and the store.
// CHECK-LABEL: func.func @reduction_loop(%X: index, %S: index, %Y: index) attributes {grid = [2]} {
// CHECK-NEXT:    call @local_schedule_0(%X, %S) : (index, index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [2]} {
// CHECK:         %partial = scf.for %j = %c0 to %c4096 step %c64 iter_args(%acc = %zero) -> (tensor<1x64xf16>) {
// CHECK:           %x = ktdp.load %x_tile
// CHECK:         %sum = linalg.reduce { arith.addf } ins(%partial : tensor<1x64xf16>)
// CHECK:         ktdp.store %sum, %s_tile

// -----

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @enclosed_loop(%X: index, %Y: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %x0 = ktdp.construct_access_tile %X_view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %x0 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  scf.for %i = %c64 to %c1024 step %c64 {
    %xi = ktdp.construct_access_tile %X_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %zeros = arith.constant dense<0.0> : tensor<64xf16>
    ktdp.store %zeros, %xi : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  %y0 = ktdp.construct_access_tile %Y_view[%c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  ktdp.store %a, %y0 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// A loop between a group's load and its store runs inside that group's program,
// in place, so the load still happens before the loop's stores.
// CHECK-LABEL: func.func @enclosed_loop(%X: index, %Y: index) {
// CHECK-NEXT:    call @local_schedule_0(%X, %Y) : (index, index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1]} {
// CHECK:         %a = ktdp.load %x0
// CHECK-NEXT:    scf.for %i = %c64 to %c1024 step %c64 {
// CHECK:           ktdp.store %zeros, %xi
// CHECK:         }
// CHECK:         ktdp.store %a, %y0
