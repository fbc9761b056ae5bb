// Elementwise compute in every spelling fuses into one linalg.generic:
// tensor-level math.exp, arith.addf and arith.mulf, a named linalg.mul, and a
// generic whose body calls a spyreop intrinsic and takes a scalar operand (which
// its body now captures). A reads twice but comes in once, and the body computes
// r = sigmoid((exp(a) + b * a) * half), then r * r, in the order the ops were
// fused (a producer's body before its consumer's). The loads and the store stay as
// they are; no device is needed.

// RUN: ktc-opt %s -p generalize-and-fuse | filecheck %s

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%A: index, %B: index, %C: index, %half: f16) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_view = ktdp.construct_memory_view %A, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %b_view = ktdp.construct_memory_view %B, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %c_view = ktdp.construct_memory_view %C, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %a_tile = ktdp.construct_access_tile %a_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %b_tile = ktdp.construct_access_tile %b_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %c_tile = ktdp.construct_access_tile %c_view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %a = ktdp.load %a_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %b = ktdp.load %b_tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %e = math.exp %a : tensor<64xf16>
    %init = tensor.empty() : tensor<64xf16>
    %p = linalg.mul ins(%b, %a : tensor<64xf16>, tensor<64xf16>) outs(%init : tensor<64xf16>) -> tensor<64xf16>
    %s = arith.addf %e, %p : tensor<64xf16>
    %r = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> ()>, #id], iterator_types = ["parallel"]} ins(%s, %half : tensor<64xf16>, f16) outs(%init : tensor<64xf16>) {
    ^bb0(%x: f16, %h: f16, %o: f16):
      %m = arith.mulf %x, %h : f16
      %q = spyreop.sigmoid %m : f16
      linalg.yield %q : f16
    } -> tensor<64xf16>
    %sq = arith.mulf %r, %r : tensor<64xf16>
    ktdp.store %sq, %c_tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[A:.+]] = ktdp.load %a_tile : <64xindex> -> tensor<64xf16>
// CHECK-NEXT:    %[[B:.+]] = ktdp.load %b_tile : <64xindex> -> tensor<64xf16>
// CHECK-NEXT:    %[[EMPTY:.+]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:    %[[SQ:.+]] = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : tensor<64xf16>, tensor<64xf16>) outs(%[[EMPTY]] : tensor<64xf16>) {
// CHECK-NEXT:    ^bb0(%[[AE:.+]]: f16, %[[BE:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %[[BE]], %[[AE]] : f16
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[AE]] : f16
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[E]], %[[P]] : f16
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[S]], %half : f16
// CHECK-NEXT:      %[[Q:.+]] = spyreop.sigmoid %[[M]] : f16
// CHECK-NEXT:      %[[R:.+]] = arith.mulf %[[Q]], %[[Q]] : f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK-NEXT:    } -> tensor<64xf16>
// CHECK-NEXT:    ktdp.store %[[SQ]], %c_tile : tensor<64xf16>, <64xindex>
// CHECK-NEXT:    return
