// swiglu_mlp: the MLP block of a SwiGLU transformer, out = down(silu(x Wg) * (x Wu)),
// for 64 tokens, a hidden size of 32 and an intermediate size of 64, all f16.
//   numpy: g = x @ wg; u = x @ wu; h = g / (1 + np.exp(-g)) * u; out = h @ wd
//   (x: 64x32, wg, wu: 32x64, wd: 64x32, out: 64x32 f16)
// 2 compute tiles split the tokens: tile t multiplies its 32 rows of x by the three
// weights whole. Each product accumulates in the device's accumulator type and is
// rounded to f16 once; silu and the product of gate and up are one linalg.generic
// whose result stays on chip as the left operand of the down product. On a matrix
// unit the gate and up products run there; the down product, whose left operand is
// not loaded from memory, too on spyre (that operand stored into the scratchpad and
// fed from there), on the SIMD engine on toy (whose FIFO holds no whole row of it).
// x is loaded once per product: two products of one loaded tensor on a SIMD engine
// (the third chip's) are not compiled yet.
#tokens = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#weights = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_mlp(%x: index, %wg: index, %wu: index, %wd: index, %out: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 32 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>
    } : memref<64x32xf16>
    %wg_view = ktdp.construct_memory_view %wg, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #weights, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %wu_view = ktdp.construct_memory_view %wu, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #weights, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %wd_view = ktdp.construct_memory_view %wd, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #down, memory_space = #ktdp.memory_space<global>
    } : memref<64x32xf16>
    %out_view = ktdp.construct_memory_view %out, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>
    } : memref<64x32xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%first_row, %c0] {
      access_tile_set = #rows, access_tile_order = #identity
    } : memref<64x32xf16> -> !ktdp.access_tile<32x32xindex>
    %wg_tile = ktdp.construct_access_tile %wg_view[%c0, %c0] {
      access_tile_set = #weights, access_tile_order = #identity
    } : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %wu_tile = ktdp.construct_access_tile %wu_view[%c0, %c0] {
      access_tile_set = #weights, access_tile_order = #identity
    } : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %wd_tile = ktdp.construct_access_tile %wd_view[%c0, %c0] {
      access_tile_set = #down, access_tile_order = #identity
    } : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
    %out_tile = ktdp.construct_access_tile %out_view[%first_row, %c0] {
      access_tile_set = #rows, access_tile_order = #identity
    } : memref<64x32xf16> -> !ktdp.access_tile<32x32xindex>
    %gate_tokens = ktdp.load %x_tile : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %up_tokens = ktdp.load %x_tile : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %gate_weights = ktdp.load %wg_tile : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %up_weights = ktdp.load %wu_tile : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %down_weights = ktdp.load %wd_tile : !ktdp.access_tile<64x32xindex> -> tensor<64x32xf16>
    %zero = arith.constant 0.0 : f16
    %wide_empty = tensor.empty() : tensor<32x64xf16>
    %wide_zeros = linalg.fill ins(%zero : f16) outs(%wide_empty : tensor<32x64xf16>) -> tensor<32x64xf16>
    %gate = linalg.matmul ins(%gate_tokens, %gate_weights : tensor<32x32xf16>, tensor<32x64xf16>)
                          outs(%wide_zeros : tensor<32x64xf16>) -> tensor<32x64xf16>
    %up = linalg.matmul ins(%up_tokens, %up_weights : tensor<32x32xf16>, tensor<32x64xf16>)
                        outs(%wide_zeros : tensor<32x64xf16>) -> tensor<32x64xf16>
    %hidden = linalg.generic {
      indexing_maps = [#identity, #identity, #identity],
      iterator_types = ["parallel", "parallel"]
    } ins(%gate, %up : tensor<32x64xf16>, tensor<32x64xf16>) outs(%wide_empty : tensor<32x64xf16>) {
    ^bb0(%g: f16, %u: f16, %unused: f16):
      %one = arith.constant 1.0 : f16
      %minus_g = arith.negf %g : f16
      %exp = math.exp %minus_g : f16
      %denominator = arith.addf %exp, %one : f16
      %silu = arith.divf %g, %denominator : f16
      %product = arith.mulf %silu, %u : f16
      linalg.yield %product : f16
    } -> tensor<32x64xf16>
    %out_empty = tensor.empty() : tensor<32x32xf16>
    %out_zeros = linalg.fill ins(%zero : f16) outs(%out_empty : tensor<32x32xf16>) -> tensor<32x32xf16>
    %result = linalg.matmul ins(%hidden, %down_weights : tensor<32x64xf16>, tensor<64x32xf16>)
                            outs(%out_zeros : tensor<32x32xf16>) -> tensor<32x32xf16>
    ktdp.store %result, %out_tile : tensor<32x32xf16>, !ktdp.access_tile<32x32xindex>
    return
  }
}
