// Whatever is not KTIR that the pipeline compiles is rejected by name, never
// passed on silently: a call, memref and affine ops, and a kernel argument that is
// neither a pointer nor a scalar.

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
