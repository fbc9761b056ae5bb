// address-assignment lets two scratchpad buffers of consecutive steps share bytes,
// and the grid's waves (and loops) run those steps again: on toy, whose two cores run
// this grid of 4 tiles in two waves, the slots the DMA fills with the keys and the
// accumulator of the product, which the load unit reads last to round it, sit at the
// same address of each core's L1. DMA-in, at the start of every wave but the first,
// waits for a signal the load unit sends at the end of the wave before, once it has
// read the accumulator, so the next wave's keys never land on it before.

// RUN: ktc-opt %s --arch toy -p ktir-to-dfir | filecheck %s

func.func @mm(%out: index, %key: index, %scale: f32, %n: index) attributes {grid = [2, 2]} {
  %qb, %kv = ktdp.get_compute_tile_id : index, index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %row = arith.muli %qb, %c2 : index
  %head = arith.muli %kv, %c2 : index
  %kview = ktdp.construct_memory_view %key, sizes: [8, 16, 2, 32], strides: [1024, 64, 32, 1] {coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16x2x32xf16>
  %oview = ktdp.construct_memory_view %out, sizes: [4, 4, 32], strides: [128, 32, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x4x32xf16>
  %kt = ktdp.construct_access_tile %kview[%qb, %c0, %kv, %c0] {access_tile_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>} : memref<8x16x2x32xf16> -> !ktdp.access_tile<1x16x1x32xindex>
  %k4 = ktdp.load %kt : !ktdp.access_tile<1x16x1x32xindex> -> tensor<1x16x1x32xf16>
  %k2 = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x32xf16> into tensor<16x32xf16>
  %k = arith.extf %k2 : tensor<16x32xf16> to tensor<16x32xf32>
  %s = tensor.splat %scale : tensor<4x16xf32>
  %zero = arith.constant 0.0 : f32
  %z = tensor.splat %zero : tensor<4x32xf32>
  %c1 = arith.constant 1 : index
  %acc = scf.for %j = %c0 to %n step %c1 iter_args(%a = %z) -> (tensor<4x32xf32>) {
    %a2 = linalg.matmul ins(%s, %k : tensor<4x16xf32>, tensor<16x32xf32>) outs(%a : tensor<4x32xf32>) -> tensor<4x32xf32>
    scf.yield %a2 : tensor<4x32xf32>
  }
  %o16 = arith.truncf %acc : tensor<4x32xf32> to tensor<4x32xf16>
  %o3 = tensor.expand_shape %o16 [[0, 1], [2]] output_shape [2, 2, 32] : tensor<4x32xf16> into tensor<2x2x32xf16>
  %ot = ktdp.construct_access_tile %oview[%row, %head, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<4x4x32xf16> -> !ktdp.access_tile<2x2x32xindex>
  ktdp.store %o3, %ot : tensor<2x2x32xf16>, !ktdp.access_tile<2x2x32xindex>
  return
}

// CHECK:      dfir.program "MNILU"
// CHECK:        scf.for %[[WAVE:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:            dfir.sync_recv %{{.*}} id {{[0-9]+}} : !dfir.unit<"L1LU">
// CHECK:          %[[LATER:.+]] = arith.cmpi sge, %[[WAVE]], %{{.+}} : index
// CHECK-NEXT:     scf.if %[[LATER]] {
// CHECK-NEXT:       dfir.sync_recv %{{.*}} id [[DONE:[0-9]+]] : !dfir.unit<"L1LU">
// CHECK-NEXT:     }
// CHECK:          dfir.dma
// CHECK:      dfir.program "L1LU"
// CHECK:              dfir.sync_send %{{.*}} id [[DONE]] : !dfir.unit<"MNILU">
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   dfir.program "SFU"
