// attention: single-head scaled dot-product attention, out = softmax(Q K^T / sqrt(d)) V,
// for 64 positions and a head dimension d of 64, all f16.
//   numpy: s = q @ k.T / 8; p = np.exp(s - s.max(axis=1, keepdims=True))
//          out = (p / p.sum(axis=1, keepdims=True)) @ v
//   (q, k, v, out: 64x64 f16)
// 2 compute tiles split the queries: tile t takes rows 32t..32t+31 of Q and all of K
// and V. K is read through a linalg.transpose; the scores are scaled by 1/8, and the
// softmax over each row of them (max, exp, sum, divide) stays on chip between the two
// products.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#queries = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @attention(%q: index, %k: index, %v: index, %out: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %queries_per_tile = arith.constant 32 : index
    %tile = ktdp.get_compute_tile_id : index
    %first = arith.muli %tile, %queries_per_tile : index
    %q_view = ktdp.construct_memory_view %q, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %k_view = ktdp.construct_memory_view %k, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %v_view = ktdp.construct_memory_view %v, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %out_view = ktdp.construct_memory_view %out, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %q_tile = ktdp.construct_access_tile %q_view[%first, %c0] {
      access_tile_set = #queries, access_tile_order = #identity
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %k_tile = ktdp.construct_access_tile %k_view[%c0, %c0] {
      access_tile_set = #whole, access_tile_order = #identity
    } : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %v_tile = ktdp.construct_access_tile %v_view[%c0, %c0] {
      access_tile_set = #whole, access_tile_order = #identity
    } : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %out_tile = ktdp.construct_access_tile %out_view[%first, %c0] {
      access_tile_set = #queries, access_tile_order = #identity
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %queries = ktdp.load %q_tile : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %keys = ktdp.load %k_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %values = ktdp.load %v_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %zero = arith.constant 0.0 : f16
    %lowest = arith.constant 0xFC00 : f16
    %scale = arith.constant 1.25e-01 : f16
    %keys_t_empty = tensor.empty() : tensor<64x64xf16>
    %keys_t = linalg.transpose ins(%keys : tensor<64x64xf16>) outs(%keys_t_empty : tensor<64x64xf16>)
                               permutation = [1, 0]
    %scores_empty = tensor.empty() : tensor<32x64xf16>
    %scores_zeros = linalg.fill ins(%zero : f16) outs(%scores_empty : tensor<32x64xf16>) -> tensor<32x64xf16>
    %scores = linalg.matmul ins(%queries, %keys_t : tensor<32x64xf16>, tensor<64x64xf16>)
                            outs(%scores_zeros : tensor<32x64xf16>) -> tensor<32x64xf16>
    %scales = tensor.splat %scale : tensor<32x64xf16>
    %scaled = arith.mulf %scores, %scales : tensor<32x64xf16>
    %row_empty = tensor.empty() : tensor<32xf16>
    %row_lowest = linalg.fill ins(%lowest : f16) outs(%row_empty : tensor<32xf16>) -> tensor<32xf16>
    %row_max = linalg.reduce { arith.maximumf } ins(%scaled : tensor<32x64xf16>)
                             outs(%row_lowest : tensor<32xf16>) dimensions = [1]
    %max_rows = linalg.broadcast ins(%row_max : tensor<32xf16>) outs(%scores_empty : tensor<32x64xf16>)
                                 dimensions = [1]
    %shifted = arith.subf %scaled, %max_rows : tensor<32x64xf16>
    %exp = math.exp %shifted : tensor<32x64xf16>
    %row_zeros = linalg.fill ins(%zero : f16) outs(%row_empty : tensor<32xf16>) -> tensor<32xf16>
    %row_sum = linalg.reduce { arith.addf } ins(%exp : tensor<32x64xf16>)
                             outs(%row_zeros : tensor<32xf16>) dimensions = [1]
    %sum_rows = linalg.broadcast ins(%row_sum : tensor<32xf16>) outs(%scores_empty : tensor<32x64xf16>)
                                 dimensions = [1]
    %probabilities = arith.divf %exp, %sum_rows : tensor<32x64xf16>
    %result = linalg.matmul ins(%probabilities, %values : tensor<32x64xf16>, tensor<64x64xf16>)
                            outs(%scores_zeros : tensor<32x64xf16>) -> tensor<32x64xf16>
    ktdp.store %result, %out_tile : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    return
  }
}
