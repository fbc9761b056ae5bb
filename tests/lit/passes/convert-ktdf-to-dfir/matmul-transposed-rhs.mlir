// A contraction whose right operand the schedule feeds n x k (spyre's matrix unit has
// transposed_rhs) lowers to a dfir.matmul marked transposed_rhs, its shape still
// [m, k, n]; on toy, whose unit takes B only k x n, the same kernel's products are
// plain (its B was transposed by the copy). The kernel: a 2 x 8 A by an 8 x 8 B
// stored n x k, read through a linalg.transpose (the whole pipeline runs; the
// lowering is its last step that matters here).

// RUN: ktc-opt %s --arch spyre -p ktir-to-dfir | filecheck %s
// RUN: ktc-opt %s --arch toy -p ktir-to-dfir | filecheck %s --check-prefix=TOY

// CHECK:     dfir.program "PT"
// CHECK:     dfir.matmul %{{.+}}, %{{.+}}, %{{.+}} [2, 8, 8] transposed_rhs : vector<16xf16>, vector<64xf16> -> vector<16xf32>
// TOY:       dfir.program "PT"
// TOY-NOT:   transposed_rhs
// TOY:       dfir.matmul %{{.+}}, %{{.+}}, %{{.+}} [2, 4, 8] : vector<8xf16>, vector<32xf16> -> vector<16xf32>

#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_rhs(%a: index, %b: index, %c: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %a, sizes: [2, 8], strides: [8, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [8, 8], strides: [8, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %cv = ktdp.construct_memory_view %c, sizes: [2, 8], strides: [8, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #a, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
  %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
  %x = ktdp.load %at : !ktdp.access_tile<2x8xindex> -> tensor<2x8xf16>
  %y = ktdp.load %bt : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
  %ye = tensor.empty() : tensor<8x8xf16>
  %yt = linalg.transpose ins(%y : tensor<8x8xf16>) outs(%ye : tensor<8x8xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<2x8xf16>) -> tensor<2x8xf16>
  %p = linalg.matmul ins(%x, %yt : tensor<2x8xf16>, tensor<8x8xf16>) outs(%init : tensor<2x8xf16>) -> tensor<2x8xf16>
  ktdp.store %p, %ct : tensor<2x8xf16>, !ktdp.access_tile<2x8xindex>
  return
}
