// Whatever is not KTIR that the pipeline compiles is rejected by name, never
// passed on silently: a call, memref and affine ops (a subview of a memory view with
// what to write instead), and a kernel argument that is neither a pointer nor a scalar.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

func.func private @callee(index)

func.func @calls(%x: index) {
  // expected-error@+1 {{'func.call' is not supported yet: a kernel is one function; inline the callee}}
  func.call @callee(%x) : (index) -> ()
  return
}

// -----

func.func @scratch() {
  // expected-error@+1 {{'memref.alloc' is not supported: the pipeline compiles ktdp views, access tiles, loads and stores, elementwise arith/math, linalg generic/reduce/broadcast/fill, named elementwise ops and contractions (matmul, batch_matmul, a transpose of their inputs), tensor.empty/splat/extract, scf.for and scf.if}}
  %m = memref.alloc() : memref<64xf16>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @subview(%x: index) {
  %v = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  // expected-error@+1 {{'memref.subview' is not supported yet: a part of a memory view is addressed by its access tiles: start the tile at the part's offset (%view[%i + 32, %j]), or construct a memory view at the part's start}}
  %s = memref.subview %v[32, 0] [32, 64] [1, 1] : memref<64x64xf16> to memref<32x64xf16, strided<[64, 1], offset: 2048>>
  return
}

// -----

func.func @affine_index(%i: index) {
  // expected-error@+1 {{'affine.apply' is not supported}}
  %j = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
  return
}

// -----

// expected-error@+1 {{'func.func' @memref_argument argument #0 has type memref<64xf16>; kernel arguments are pointers (index) and integer or float scalars}}
func.func @memref_argument(%m: memref<64xf16>) {
  return
}
