// A view is marked ktdf.masked when one of its tiles may reach outside its
// coordinate set: here a tile at 8 * tile id of a 16-element view over a grid of 3
// (the third tile starts at 16), and a tile at 1024 * tile id of a view of %n
// elements (a launch argument: the end is not known). A tile whose start the grid
// and the loop bounds keep inside (8 * tile id over a grid of 2, 4 * %i for %i in
// [0, 4) of a 16-element view) leaves its view unmarked. Tiles of a program's
// arguments take the values of the calls (here %r in [0, 1]).

// RUN: ktc-opt %s --arch toy -p lower-ktdp-views | filecheck %s

#vec16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#eight = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#big = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  module {
    func.func @k(%A: index, %B: index, %C: index, %D: index, %E: index, %n: index) attributes {grid = [3]} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      scf.for %r = %c0 to %c2 step %c1 {
        func.call @local_schedule_0(%A, %B, %C, %D, %E, %n, %r) : (index, index, index, index, index, index, index) -> ()
      }
      func.return
    }
    func.func private @local_schedule_0(index, index, index, index, index, index, index) -> ()
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index, %D: index, %E: index, %n: index, %r: index) attributes {grid = [3]} {
      %t = ktdp.get_compute_tile_id : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c1024 = arith.constant 1024 : index
      %past = arith.muli %t, %c8 : index
      %a = ktdp.construct_memory_view %A, sizes: [16], strides: [1] {coordinate_set = #vec16, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      %at = ktdp.construct_access_tile %a[%past] {access_tile_set = #eight, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<8xindex>
      %x = ktdp.load %at : !ktdp.access_tile<8xindex> -> tensor<8xf16>
      %big_start = arith.muli %t, %c1024 : index
      %b = ktdp.construct_memory_view %B, sizes: [%n], strides: [1] {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
      %bt = ktdp.construct_access_tile %b[%big_start] {access_tile_set = #big, access_tile_order = #id1} : memref<?xf16> -> !ktdp.access_tile<1024xindex>
      %y = ktdp.load %bt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
      %inside = arith.muli %r, %c8 : index
      %c = ktdp.construct_memory_view %C, sizes: [16], strides: [1] {coordinate_set = #vec16, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      %ct = ktdp.construct_access_tile %c[%inside] {access_tile_set = #eight, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<8xindex>
      ktdp.store %x, %ct : tensor<8xf16>, !ktdp.access_tile<8xindex>
      %d = ktdp.construct_memory_view %D, sizes: [16], strides: [1] {coordinate_set = #vec16, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      scf.for %i = %c0 to %c4 step %c1 {
        %start = arith.muli %i, %c4 : index
        %dt = ktdp.construct_access_tile %d[%start] {access_tile_set = #four, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<4xindex>
        %z = ktdp.load %dt : !ktdp.access_tile<4xindex> -> tensor<4xf16>
        ktdp.store %z, %dt : tensor<4xf16>, !ktdp.access_tile<4xindex>
      }
      %e = ktdp.construct_memory_view %E, sizes: [1024], strides: [1] {coordinate_set = #big, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
      %et = ktdp.construct_access_tile %e[%c0] {access_tile_set = #big, access_tile_order = #id1} : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
      ktdp.store %y, %et : tensor<1024xf16>, !ktdp.access_tile<1024xindex>
      func.return
    }
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %a = ktdp.construct_memory_view %A, {{.*}} {coordinate_set = #{{.*}}, ktdf.masked, memory_space
// CHECK:         %b = ktdp.construct_memory_view %B, {{.*}} {coordinate_set = #{{.*}}, ktdf.masked, memory_space
// CHECK:         %c = ktdp.construct_memory_view %C, {{.*}} {coordinate_set = #{{[a-z0-9]*}}, memory_space
// CHECK:         %d = ktdp.construct_memory_view %D, {{.*}} {coordinate_set = #{{[a-z0-9]*}}, memory_space
// CHECK:         %e = ktdp.construct_memory_view %E, {{.*}} {coordinate_set = #{{[a-z0-9]*}}, memory_space
