// A linalg.generic body may compute on its element's position: linalg.index, integer
// arith on it with constants, an arith.cmpi of positions read by arith.select, and
// arith.sitofp of a position feeding float compute pass unchanged on spyre.

// RUN: ktc-opt %s --arch spyre > %t.before
// RUN: ktc-opt %s --arch spyre -p ktir-legality-check > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

// CHECK-LABEL: func.func @lower_triangle
// CHECK:         %keep = arith.cmpi ule, %c, %r4 : index
// CHECK:         %m = arith.select %keep, %s, %zero : f16
#id = affine_map<(d0, d1) -> (d0, d1)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
func.func @lower_triangle(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #box, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x16xf16>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) {
  ^bb0(%v: f16, %o: f16):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r4 = arith.muli %r, %c4 : index
    %keep = arith.cmpi ule, %c, %r4 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f16
    %s = arith.addf %v, %cf : f16
    %m = arith.select %keep, %s, %zero : f16
    linalg.yield %m : f16
  } -> tensor<4x16xf16>
  ktdp.store %b, %xt : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
  return
}
