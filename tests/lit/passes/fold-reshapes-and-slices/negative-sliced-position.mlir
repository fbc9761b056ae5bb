// A slice of a linalg.generic that reads its element's position (linalg.index) is
// refused at the slice: the generic on the slice would count positions from the
// slice's start, not from the whole tensor's.

// RUN: ktc-opt %s --verify-diagnostics -p fold-reshapes-and-slices

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @sliced(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %empty = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<64xf16>) outs(%empty : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f16
    %s = arith.addf %in, %f : f16
    linalg.yield %s : f16
  } -> tensor<64xf16>
  // expected-error@+1 {{'tensor.extract_slice' slices a 'linalg.generic' that reads its element's position (linalg.index); the compiler slices generics that compute on their operands only}}
  %half = tensor.extract_slice %r[32] [32] [1] : tensor<64xf16> to tensor<32xf16>
  %e = math.exp %half : tensor<32xf16>
  return
}
