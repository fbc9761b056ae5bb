// silu_mul: the gated activation of a SwiGLU MLP, out = silu(gate) * up, where the
// input row holds gate and up side by side.
//   numpy: g, u = x[:, :128], x[:, 128:]; out = g / (1 + np.exp(-g)) * u
//   (x: 32x256 f16, out: 32x128 f16)
// 32 compute tiles take one row each; the two halves are two access tiles on the
// same view, and silu and the product are one linalg.generic.
#inputs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#outputs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @silu_mul(%x: index, %out: index) attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %half = arith.constant 128 : index
    %row = ktdp.get_compute_tile_id : index
    %x_view = ktdp.construct_memory_view %x, sizes: [32, 256], strides: [256, 1] {
      coordinate_set = #inputs, memory_space = #ktdp.memory_space<global>
    } : memref<32x256xf16>
    %out_view = ktdp.construct_memory_view %out, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #outputs, memory_space = #ktdp.memory_space<global>
    } : memref<32x128xf16>
    %gate_tile = ktdp.construct_access_tile %x_view[%row, %c0] {
      access_tile_set = #half_row, access_tile_order = #identity
    } : memref<32x256xf16> -> !ktdp.access_tile<1x128xindex>
    %up_tile = ktdp.construct_access_tile %x_view[%row, %half] {
      access_tile_set = #half_row, access_tile_order = #identity
    } : memref<32x256xf16> -> !ktdp.access_tile<1x128xindex>
    %out_tile = ktdp.construct_access_tile %out_view[%row, %c0] {
      access_tile_set = #half_row, access_tile_order = #identity
    } : memref<32x128xf16> -> !ktdp.access_tile<1x128xindex>
    %gate = ktdp.load %gate_tile : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %up = ktdp.load %up_tile : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %empty = tensor.empty() : tensor<1x128xf16>
    %result = linalg.generic {
      indexing_maps = [#identity, #identity, #identity],
      iterator_types = ["parallel", "parallel"]
    } ins(%gate, %up : tensor<1x128xf16>, tensor<1x128xf16>) outs(%empty : tensor<1x128xf16>) {
    ^bb0(%g: f16, %u: f16, %unused: f16):
      %one = arith.constant 1.0 : f16
      %minus_g = arith.negf %g : f16
      %exp = math.exp %minus_g : f16
      %denominator = arith.addf %exp, %one : f16
      %silu = arith.divf %g, %denominator : f16
      %product = arith.mulf %silu, %u : f16
      linalg.yield %product : f16
    } -> tensor<1x128xf16>
    ktdp.store %result, %out_tile : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    return
  }
}
