// A position may join run-time scalars: a kernel argument, the tile id and a loop's
// induction variable added to it (the scalar product of the loop variable computed
// in the body), compared by arith.cmpi for an arith.select and converted by
// arith.uitofp and arith.sitofp; the kernel passes unchanged on spyre.

// RUN: ktc-opt %s --arch spyre > %t.before
// RUN: ktc-opt %s --arch spyre -p ktir-legality-check > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

// CHECK-LABEL: func.func @causal
// CHECK:         %keep = arith.cmpi ule, %key, %query : index
// CHECK:         %m = arith.select %keep, %v, %zero : f16
#id = affine_map<(d0, d1) -> (d0, d1)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
func.func @causal(%x: index, %context: index, %tiles: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #box, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  scf.for %j = %c0 to %tiles step %c1 {
    %a = ktdp.load %xt : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<4x16xf16>
    %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
    ^bb0(%v: f16, %o: f16):
      %r = linalg.index 0 : index
      %c = linalg.index 1 : index
      %base = arith.addi %context, %pid : index
      %query = arith.addi %base, %r : index
      %start = arith.muli %j, %c16 : index
      %key = arith.addi %start, %c : index
      %keep = arith.cmpi ule, %key, %query : index
      %kept = arith.uitofp %keep : i1 to f16
      %ki = arith.index_cast %key : index to i32
      %kf = arith.sitofp %ki : i32 to f16
      %m = arith.select %keep, %v, %zero : f16
      %w = arith.mulf %m, %kept : f16
      %s = arith.addf %w, %kf : f16
      linalg.yield %s : f16
    } -> tensor<4x16xf16>
    ktdp.store %b, %xt : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
  }
  return
}
