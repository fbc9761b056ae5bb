// KTIR loops stay in the orchestrator: a group inside a loop body is called from
// inside the loop, once per iteration, with the induction variables it uses as
// arguments (kernel arguments first, then outer to inner induction variables);
// groups are numbered in program order, and control flow around groups
// (scf.if, imperfect nests) is kept as written.

// RUN: ktc-opt %s --split-input-file -p compute-group-extraction --arch toy | filecheck %s

#view = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @sibling_loops(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [4096], strides: [1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  scf.for %i = %c0 to %c1024 step %c64 {
    %x_tile = ktdp.construct_access_tile %X_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %Y_view[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %e = math.exp %x : tensor<64xf16>
    ktdp.store %e, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  scf.for %j = %c1024 to %c1024 step %c64 {
    %x_tile = ktdp.construct_access_tile %X_view[%j] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %y_tile = ktdp.construct_access_tile %Y_view[%j] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %s = math.sqrt %x : tensor<64xf16>
    ktdp.store %s, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  %x_tile = ktdp.construct_access_tile %X_view[%c1024] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %y_tile = ktdp.construct_access_tile %Y_view[%c1024] {access_tile_set = #tile, access_tile_order = #order} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %x_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  ktdp.store %x, %y_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// CHECK-LABEL: func.func @sibling_loops(%X: index, %Y: index) attributes {grid = [1]} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c64 = arith.constant 64 : index
// CHECK-NEXT:    %c1024 = arith.constant 1024 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c1024 step %c64 {
// CHECK-NEXT:      func.call @local_schedule_0(%X, %Y, %i) : (index, index, index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %j = %c1024 to %c1024 step %c64 {
// CHECK-NEXT:      func.call @local_schedule_1(%X, %Y, %j) : (index, index, index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    call @local_schedule_2(%X, %Y) : (index, index) -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @local_schedule_0(index, index, index) -> ()
// CHECK-NEXT:  func.func private @local_schedule_1(index, index, index) -> ()
// CHECK-NEXT:  func.func private @local_schedule_2(index, index) -> ()
// CHECK:       module @local_schedule_0 {
// CHECK-NEXT:    func.func @local_schedule_0(%X: index, %Y: index, %i: index) attributes {grid = [1]} {
// CHECK:           math.exp
// CHECK-NOT:       math.sqrt
// CHECK:         module @local_schedule_1 {
// CHECK-NEXT:    func.func @local_schedule_1(%X: index, %Y: index, %j: index) attributes {grid = [1]} {
// CHECK:           math.sqrt
// CHECK:         module @local_schedule_2 {
// CHECK-NEXT:    func.func @local_schedule_2(%X: index, %Y: index) attributes {grid = [1]} {
// CHECK-NEXT:      %c1024 = arith.constant 1024 : index
// CHECK-NEXT:      %X_view = ktdp.construct_memory_view %X
// CHECK-NEXT:      %Y_view = ktdp.construct_memory_view %Y
// CHECK-NEXT:      %x_tile = ktdp.construct_access_tile %X_view[%c1024]
// CHECK-NEXT:      %y_tile = ktdp.construct_access_tile %Y_view[%c1024]
// CHECK-NEXT:      %x = ktdp.load %x_tile
// CHECK-NEXT:      ktdp.store %x, %y_tile
// CHECK-NEXT:      return

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#tile = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @nested_loops(%n: index, %X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c4096 step %c64 {
      %x_tile = ktdp.construct_access_tile %X_view[%j, %i] {access_tile_set = #tile, access_tile_order = #order} : memref<64x4096xf16> -> !ktdp.access_tile<1x64xindex>
      %y_tile = ktdp.construct_access_tile %Y_view[%i, %j] {access_tile_set = #tile, access_tile_order = #order} : memref<64x4096xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %e = math.exp %x : tensor<1x64xf16>
      ktdp.store %e, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    %last = arith.cmpi eq, %i, %c0 : index
    scf.if %last {
      %x_tile = ktdp.construct_access_tile %X_view[%i, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<64x4096xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %y_tile = ktdp.construct_access_tile %Y_view[%i, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<64x4096xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %x, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
  }
  return
}

// CHECK-LABEL: func.func @nested_loops(%n: index, %X: index, %Y: index) attributes {grid = [4]} {
// CHECK:         scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      scf.for %j = %c0 to %c4096 step %c64 {
// CHECK-NEXT:        func.call @local_schedule_0(%X, %Y, %i, %j) : (index, index, index, index) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:      %last = arith.cmpi eq, %i, %c0 : index
// CHECK-NEXT:      scf.if %last {
// CHECK-NEXT:        func.call @local_schedule_1(%X, %Y, %i) : (index, index, index) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK:       module @local_schedule_0 {
// CHECK-NEXT:    func.func @local_schedule_0(%X: index, %Y: index, %i: index, %j: index) attributes {grid = [4]} {
// CHECK:           %x_tile = ktdp.construct_access_tile %X_view[%j, %i]
// CHECK-NEXT:      %y_tile = ktdp.construct_access_tile %Y_view[%i, %j]
// CHECK:         module @local_schedule_1 {
// CHECK-NEXT:    func.func @local_schedule_1(%X: index, %Y: index, %i: index) attributes {grid = [4]} {
// CHECK-NOT:       scf.if
// CHECK:           ktdp.store %x, %y_tile
