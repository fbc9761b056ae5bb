// Compares and selects the compute engine cannot run are refused at the op, on spyre
// (which has the instructions): a compare or select of scalars, a select of whole
// tensors by one i1, a mask stored, carried by a loop or read in another phase, a
// tensor of i1 that no compare makes, and a select in a body whose condition is
// neither a compare of the body nor an element of a mask.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch spyre -p ktir-legality-check
// RUN: not ktc-opt %s --split-input-file --arch spyre -p ktir-legality-check 2>&1 | filecheck %s

// The diagnostic at a user of a mask names where the mask was made.
// CHECK: negative-select.mlir:41:3: error: 'ktdp.store' uses the mask tensor<64xi1> of 'arith.cmpf' at {{.*}}negative-select.mlir:39:3 other than

func.func @scalar_compare(%a: f16, %b: f16) {
  // expected-error@+1 {{'arith.cmpf' works on scalars; the compute engine compares and selects tensors element by element (or in a linalg.generic body)}}
  %c = arith.cmpf olt, %a, %b : f16
  return
}

// -----

func.func @whole_tensors(%s: f16, %c: i1) {
  %t = tensor.splat %s : tensor<64xf16>
  // expected-error@+1 {{'arith.select' selects between whole tensors by one i1; the compute engine selects element by element, by a mask of arith.cmpf}}
  %r = arith.select %c, %t, %t : tensor<64xf16>
  return
}

// -----

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @stored(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xi1>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xi1> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %m = arith.cmpf oeq, %a, %a : tensor<64xf16>
  // expected-error@+1 {{'ktdp.store' uses the mask tensor<64xi1> of 'arith.cmpf' at }}
  ktdp.store %m, %yt : tensor<64xi1>, !ktdp.access_tile<64xindex>
  return
}

// -----

func.func @carried(%s: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = tensor.splat %s : tensor<64xf16>
  %m = arith.cmpf ogt, %t, %t : tensor<64xf16>
  // expected-error@+1 {{other than as a select's condition or a generic's input of the same phase; the compute engine keeps compare results only within the computation selecting by them: a mask is never stored, carried by a loop or handed over}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%k = %m) -> (tensor<64xi1>) {
    scf.yield %k : tensor<64xi1>
  }
  return
}

// -----

func.func @other_phase(%s: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = tensor.splat %s : tensor<64xf16>
  %m = arith.cmpf ogt, %t, %t : tensor<64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error@+1 {{'arith.select' uses the mask tensor<64xi1> of 'arith.cmpf'}}
    %r = arith.select %m, %t, %t : tensor<64xi1>, tensor<64xf16>
  }
  return
}

// -----

func.func @splat_mask(%c: i1) {
  // expected-error@+1 {{'tensor.splat' produces tensor<64xi1>; the compute engine makes masks by arith.cmpf only}}
  %m = tensor.splat %c : tensor<64xi1>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @captured_condition(%s: f16, %c: i1) {
  %t = tensor.splat %s : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    // expected-error@+1 {{'arith.select' selects by a condition that is not a compare of its body or an element of a mask; the compute engine selects by masks of arith.cmpf}}
    %k = arith.select %c, %in, %out : f16
    linalg.yield %k : f16
  } -> tensor<64xf16>
  return
}
