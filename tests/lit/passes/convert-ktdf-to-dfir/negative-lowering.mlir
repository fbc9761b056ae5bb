// What the lowering refuses, each at the op that causes it: a scratchpad buffer
// without an address (address-assignment has not run), a generic body op that
// has no SIMD instruction, a spyreop intrinsic no device pattern mapped onto an
// instruction, one mapped onto an instruction of another arity or onto a name that
// is no instruction, a write of the sums of two rows (which the stage folds into
// one element) into a FIFO slot of two, and a generic that yields a compare's mask
// (the i1 lives only in the computation selecting by it).

// RUN: not ktc-opt %s --split-input-file --arch toy -p convert-ktdf-to-dfir 2>&1 | filecheck %s

#set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
func.func @no_address(%arg: index) attributes {grid = [1]} {
  %a = ktdp.construct_memory_view %arg, sizes: [8], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8xf16, "DDR">
  ktdf.pipeline {
    %p:2 = ktdf.private -> (memref<8xf16, "L1">, !ktdf.token) {
      // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: buffer has no 'ktdf.address' (run address-assignment first)
      %x = memref.alloc() : memref<8xf16, "L1">
      %t = ktdf.create_token
      ktdf.private_yield %x, %t : memref<8xf16, "L1">, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[0] size [8] to %p#0[0] size [8] : memref<8xf16, "DDR">, memref<8xf16, "L1">
    } {applicable_units = ["MNILU"]}
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @no_instruction() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f, %g, %t, %x : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#3[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf16>) outs(%e : tensor<8xf16>) {
      ^bb0(%l: f16, %o: f16):
        // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'math.log' has no SIMD instruction
        %r = math.log %l : f16
        linalg.yield %r : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %s, %p#1 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [8] to %p#3[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @unmapped() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f, %g, %t, %x : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#3[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf16>) outs(%e : tensor<8xf16>) {
      ^bb0(%l: f16, %o: f16):
        // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'spyreop.sigmoid' has no pattern of the device mapped it onto an instruction
        %r = spyreop.sigmoid %l : f16
        linalg.yield %r : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %s, %p#1 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [8] to %p#3[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @arity() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f, %g, %t, %x : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#3[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf16>) outs(%e : tensor<8xf16>) {
      ^bb0(%l: f16, %o: f16):
        // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'spyreop.sigmoid' is mapped onto 'div', which takes 2 operands, not 1
        %r = spyreop.sigmoid %l {ktdf_arch.instruction = "div"} : f16
        linalg.yield %r : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %s, %p#1 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [8] to %p#3[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @unknown() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f, %g, %t, %x : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#3[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf16>) outs(%e : tensor<8xf16>) {
      ^bb0(%l: f16, %o: f16):
        // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'ktdf_arch.instruction' names no vector instruction: 'erf'
        %r = spyreop.sigmoid %l {ktdf_arch.instruction = "erf"} : f16
        linalg.yield %r : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %s, %p#1 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [8] to %p#3[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @two_row_sums() attributes {grid = [1]} {
  %zero = arith.constant 0.0 : f16
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf16>, memref<8xf16, "L1">, memref<2xf16, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf16>
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      %y = memref.alloc() {ktdf.address = 64 : i64} : memref<2xf16, "L1">
      ktdf.private_yield %f, %g, %x, %y : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf16>, memref<8xf16, "L1">, memref<2xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#2[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<2x4xf16>
      %e = tensor.empty() : tensor<2xf16>
      %acc = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e : tensor<2xf16>) {
      ^bb0(%o: f16):
        linalg.yield %zero : f16
      } -> tensor<2xf16>
      %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%u : tensor<2x4xf16>) outs(%acc : tensor<2xf16>) {
      ^bb0(%l: f16, %a: f16):
        %r = arith.addf %l, %a : f16
        linalg.yield %r : f16
      } -> tensor<2xf16>
      // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: vector<1xf16> does not fill the FIFO slot of vector<2xf16>
      ktdf.write_to_fifo %s, %p#1 : tensor<2xf16>, <"SFU" -> "L1SU", 2xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [2] to %p#3[0] size [2] : !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf16>, memref<2xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @yields_mask() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xi1>, !ktdf.token, memref<8xf16, "L1">, memref<8xi1, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xi1>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      %y = memref.alloc() {ktdf.address = 64 : i64} : memref<8xi1, "L1">
      ktdf.private_yield %f, %g, %t, %x, %y : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xi1>, !ktdf.token, memref<8xf16, "L1">, memref<8xi1, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#3[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xi1>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf16>) outs(%e : tensor<8xi1>) {
      ^bb0(%l: f16, %o: i1):
        %m = arith.cmpf oeq, %l, %l : f16
        // CHECK: negative-lowering.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: a generic yields a fused pair, a mask or a position; a compute stage hands over vectors of one element type
        linalg.yield %m : i1
      } -> tensor<8xi1>
      ktdf.write_to_fifo %s, %p#1 : tensor<8xi1>, <"SFU" -> "L1SU", 8xi1>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [8] to %p#4[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xi1>, memref<8xi1, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}
