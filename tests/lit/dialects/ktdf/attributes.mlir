// The attributes one pass leaves for another (ktdf.address, ktdf.copy_stride,
// ktdf.tile_size, ktdf.tile_sizes, ktdf.to_tiles, ktdf.relayed, ktdf.masked, loop_type) are declared by the ktdf
// dialect: the module verifier accepts them well formed on the ops they belong to,
// and rejects a malformed value, a misplaced one or an undeclared ktdf.* name at
// the op that carries it. A ktdf.address on an alloc loads the dialect's check by
// its prefix even where no ktdf op is in the file.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @well_formed
// CHECK: memref.alloc() {ktdf.address = 256 : i64, ktdf.copy_stride = 128 : i64}
// CHECK: arith.constant {ktdf.tile_size = "cost model"} 8 : index
// CHECK: ktdf.to_tiles = array<i64: -1, 0>
// CHECK: {ktdf.relayed, ktdf.to_tiles = array<i64: 1, 0>}
// CHECK: loop_type = #ktdf.loop_type<parallel_loop>
// CHECK: ktdf.masked
func.func @well_formed(%n: index) attributes {grid = [2], ktdf.tile_sizes = {L1_capacity = 65536 : i64, L1_peak_bytes = 1024 : i64, chosen_by = "cost model", estimated_cycles = 840 : i64, sizes = array<i64: 8>}} {
  %buffer = memref.alloc() {ktdf.address = 256 : i64, ktdf.copy_stride = 128 : i64} : memref<2x8xf16, "L1">
  %size = arith.constant {ktdf.tile_size = "cost model"} 8 : index
  ktdf.data_transfer from %buffer[1, 0] size [1, 8] to %buffer[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -1, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
  ktdf.data_transfer from %buffer[0, 0] size [1, 8] to %buffer[0, 0] size [1, 8] {ktdf.relayed, ktdf.to_tiles = array<i64: 1, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  %view = ktdp.construct_memory_view %n, sizes: [%n], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>, ktdf.masked, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  func.return
}

// -----

func.func @masked_with_a_value(%x: index) {
  // expected-error@+1 {{'ktdf.masked' must be a unit attribute}}
  %view = ktdp.construct_memory_view %x, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, ktdf.masked = 1 : i64, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  func.return
}

// -----

func.func @masked_alloc() {
  // expected-error@+1 {{'ktdf.masked' may only sit on 'ktdp.construct_memory_view'}}
  %buffer = memref.alloc() {ktdf.masked} : memref<8xf16, "L1">
  func.return
}

// -----

func.func @negative_address() {
  // expected-error@+1 {{'memref.alloc' op 'ktdf.address' must be a byte offset: an i64 >= 0}}
  %buffer = memref.alloc() {ktdf.address = -16 : i64} : memref<8xf16, "L1">
  func.return
}

// -----

func.func @address_not_i64() {
  // expected-error@+1 {{'ktdf.address' must be a byte offset: an i64 >= 0}}
  %buffer = memref.alloc() {ktdf.address = "zero"} : memref<8xf16, "L1">
  func.return
}

// -----

func.func @address_elsewhere() {
  // expected-error@+1 {{'arith.constant' op 'ktdf.address' may only sit on 'memref.alloc'}}
  %c = arith.constant {ktdf.address = 0 : i64} 0 : index
  func.return
}

// -----

func.func @stride_without_address() {
  // expected-error@+1 {{'ktdf.copy_stride' needs a 'ktdf.address' to count from}}
  %buffer = memref.alloc() {ktdf.copy_stride = 128 : i64} : memref<8xf16, "L1">
  func.return
}

// -----

func.func @zero_stride() {
  // expected-error@+1 {{'ktdf.copy_stride' must be a byte distance: an i64 > 0}}
  %buffer = memref.alloc() {ktdf.address = 0 : i64, ktdf.copy_stride = 0 : i64} : memref<8xf16, "L1">
  func.return
}

// -----

func.func @unknown_chooser() {
  // expected-error@+1 {{'ktdf.tile_size' must name who chose the size: one of 'cost model', 'option'}}
  %size = arith.constant {ktdf.tile_size = "guess"} 8 : index
  func.return
}

// -----

// expected-error@+1 {{'func.func' op 'ktdf.tile_sizes' must be a dictionary of chosen_by (who chose), sizes (an i64 array), estimated_cycles and, per memory kind, <kind>_peak_bytes and <kind>_capacity (each an i64 >= 0)}}
func.func @peak_without_capacity() attributes {ktdf.tile_sizes = {L1_peak_bytes = 1024 : i64, chosen_by = "option", estimated_cycles = 0 : i64, sizes = array<i64: 8>}} {
  func.return
}

// -----

func.func @bad_table(%buffer: memref<2x8xf16, "L1">) {
  // expected-error@+1 {{'ktdf.data_transfer' op 'ktdf.to_tiles' entries must be -1 (no copy) or a tile id}}
  ktdf.data_transfer from %buffer[1, 0] size [1, 8] to %buffer[1, 0] size [1, 8] {ktdf.to_tiles = array<i64: -2, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
  func.return
}

// -----

func.func @empty_table(%buffer: memref<2x8xf16, "L1">) {
  // expected-error@+1 {{'ktdf.to_tiles' must be a non-empty i64 array: one entry per tile}}
  ktdf.data_transfer from %buffer[1, 0] size [1, 8] to %buffer[1, 0] size [1, 8] {ktdf.to_tiles = array<i64>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
  func.return
}

// -----

func.func @relayed_without_table(%buffer: memref<2x8xf16, "L1">) {
  // expected-error@+1 {{'ktdf.data_transfer' op 'ktdf.relayed' needs ktdf.to_tiles: it is a copy between cores}}
  ktdf.data_transfer from %buffer[1, 0] size [1, 8] to %buffer[1, 0] size [1, 8] {ktdf.relayed} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
  func.return
}

// -----

func.func @relayed_with_a_value(%buffer: memref<2x8xf16, "L1">) {
  // expected-error@+1 {{'ktdf.data_transfer' op 'ktdf.relayed' must be a unit attribute}}
  ktdf.data_transfer from %buffer[1, 0] size [1, 8] to %buffer[1, 0] size [1, 8] {ktdf.relayed = 1 : i64, ktdf.to_tiles = array<i64: 1, 0>} : memref<2x8xf16, "L1">, memref<2x8xf16, "L1">
  func.return
}

// -----

func.func @loop_type_text(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op 'loop_type' must be a #ktdf.loop_type}}
  scf.for %i = %c0 to %n step %c1 {
  } {loop_type = "parallel_loop"}
  func.return
}

// -----

func.func @undeclared() {
  // expected-error@+1 {{'ktdf.adress' is not an attribute of the ktdf dialect}}
  %buffer = memref.alloc() {ktdf.adress = 0 : i64} : memref<8xf16, "L1">
  func.return
}
