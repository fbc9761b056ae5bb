// matmul: C = A B for A 64x128, B 128x64 and C 64x64, all f16 in device memory.
//   numpy: c = (a.astype(f64) @ b.astype(f64)).astype(f16)
// 2 compute tiles split the rows: tile t multiplies its 32 rows of A by all of B.
// The products accumulate in the device's accumulator type (f32 on a matrix unit)
// and are rounded to f16 once.
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows_of_a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows_of_c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 32 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %a_view = ktdp.construct_memory_view %a, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #a, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #b, memory_space = #ktdp.memory_space<global>
    } : memref<128x64xf16>
    %c_view = ktdp.construct_memory_view %c, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #c, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %a_tile = ktdp.construct_access_tile %a_view[%first_row, %c0] {
      access_tile_set = #rows_of_a, access_tile_order = #identity
    } : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %b_tile = ktdp.construct_access_tile %b_view[%c0, %c0] {
      access_tile_set = #b, access_tile_order = #identity
    } : memref<128x64xf16> -> !ktdp.access_tile<128x64xindex>
    %c_tile = ktdp.construct_access_tile %c_view[%first_row, %c0] {
      access_tile_set = #rows_of_c, access_tile_order = #identity
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %x = ktdp.load %a_tile : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf16>
    %y = ktdp.load %b_tile : !ktdp.access_tile<128x64xindex> -> tensor<128x64xf16>
    %zero = arith.constant 0.0 : f16
    %empty = tensor.empty() : tensor<32x64xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
    %product = linalg.matmul ins(%x, %y : tensor<32x128xf16>, tensor<128x64xf16>)
                             outs(%init : tensor<32x64xf16>) -> tensor<32x64xf16>
    ktdp.store %product, %c_tile : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    return
  }
}
