// A generic whose body reads its element's position (linalg.index) is not fused into
// the generic reading it (its positions would count the reader's loops): the
// positions' generic stays, and so does the exp reading it; the exp of the load
// fuses into the positions' generic, whose own loops are unchanged.

// RUN: ktc-opt %s -p generalize-and-fuse | filecheck %s

// CHECK-LABEL: func.func @kept
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK:           math.exp
// CHECK:           linalg.index 0 : index
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<64xf16>)
// CHECK:           math.sqrt
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @kept(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %ea = math.exp %a : tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%ea : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f16
    %s = arith.addf %in, %f : f16
    linalg.yield %s : f16
  } -> tensor<64xf16>
  %q = math.sqrt %r : tensor<64xf16>
  ktdp.store %q, %xt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
