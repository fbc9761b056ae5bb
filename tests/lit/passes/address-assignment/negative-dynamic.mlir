// A buffer needs a size the pass can bound: a dynamic size from a kernel
// argument is rejected, as is a tile size still to choose; a size bounded by a
// loop (a tile's row count, at most the tile) is accepted (see bounded.mlir). A
// memory space the device lacks is named.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p address-assignment

func.func @argument(%n: index) {
  // expected-error@+1 {{'memref.alloc' has a dynamic size with no upper bound (%n, block argument #0); give the buffer a bounded or static size}}
  %buf = memref.alloc(%n) : memref<?xf16, "L1">
  func.return
}

// -----

func.func @unchosen() {
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  // expected-error@+1 {{negative-dynamic.mlir:17:3: run tile-size-selection first); give the buffer a bounded or static size}}
  %buf = memref.alloc(%ts) : memref<?xf16, "L1">
  func.return
}

// -----

func.func @unknown_memory() {
  // expected-error@+1 {{'memref.alloc' in a memory the device lacks: device @toy has no memory "HBM"}}
  %buf = memref.alloc() : memref<8xf16, "HBM">
  func.return
}
