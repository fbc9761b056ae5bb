// Upstream-only IR prints as mlir-opt prints it, line for line: affine maps and sets
// in canonical form behind #map/#set aliases numbered as MLIR numbers them, integer
// arrays without `: i64`, attribute dictionaries sorted, `module`, `return` and `call`
// without their dialect prefix (but `func.call` inside scf.for), float constants in
// MLIR's notation, linalg.reduce in its short form, `%3:2` result groups and block
// predecessor comments. The same CHECK lines hold for real mlir-opt on this file, for
// ktc-opt reading its own output, and for either tool reading ktc's generic form.

// RUN: ktc-opt %s | filecheck %s --match-full-lines --strict-whitespace
// RUN: ktc-opt %s | ktc-opt | filecheck %s --match-full-lines --strict-whitespace
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s --match-full-lines --strict-whitespace
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s --match-full-lines --strict-whitespace %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s --match-full-lines --strict-whitespace %}

builtin.module {
  func.func private @combine(tensor<4xf32>) -> tensor<4xf32>
  func.func @kernel(%arg0: tensor<4x8xf32>, %arg1: index, %arg2: memref<16xf32, affine_map<(d0) -> (d0 + 2)>>) -> tensor<4xf32> attributes {tile = [32 : i64, 1 : i64], space = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, window = affine_set<(d0, d1) : (d0 >= 96, 127 >= d0, d1 == 0)>, index = affine_map<(d0)[s0] -> (4 * d0 + s0 floordiv 2, d0 mod 3)>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 1.0e-5 : f32
    %cst_0 = arith.constant 0xFC00 : f16
    %cst_1 = arith.constant 0.0 : f32
    %0 = tensor.empty() : tensor<4xf32>
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce { arith.addf } ins(%arg0 : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) dimensions = [1]
    %reduced_2 = linalg.reduce ins(%arg0 : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %5 = arith.maximumf %init, %in : f32
        linalg.yield %5 : f32
      }
    %2 = linalg.generic {iterator_types = ["parallel"], indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]} ins(%reduced, %reduced_2 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %6 = arith.subf %in, %in_3 : f32
      linalg.yield %6 : f32
    } -> tensor<4xf32>
    %3:2 = scf.for %arg3 = %c0 to %arg1 step %c1 iter_args(%arg4 = %2, %arg5 = %1) -> (tensor<4xf32>, tensor<4xf32>) {
      %6 = func.call @combine(%arg4) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %6, %arg5 : tensor<4xf32>, tensor<4xf32>
    }
    %4 = scf.for %arg3 = %c0 to %arg1 step %c1 iter_args(%arg4 = %3#1) -> tensor<4xf32> {
      scf.yield %arg4 : tensor<4xf32>
    }
    affine.for %arg3 = 0 to 10 {
      %6 = affine.load %arg2[%arg3 + 1] : memref<16xf32, affine_map<(d0) -> (d0 + 2)>>
      affine.store %6, %arg2[%arg3 * 2 + symbol(%arg1) - 1] : memref<16xf32, affine_map<(d0) -> (d0 + 2)>>
    }
    %5 = func.call @combine(%4) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %5 : tensor<4xf32>
  }
  func.func @branches(%arg0: i1, %arg1: f32) -> f32 {
    cf.cond_br %arg0, ^bb1(%arg1 : f32), ^bb2
  ^bb1(%0: f32):
    cf.br ^bb2
  ^bb2:
    func.return %arg1 : f32
  }
}

// CHECK:#map = affine_map<(d0) -> (d0 + 2)>
// CHECK-NEXT:#map1 = affine_map<(d0)[s0] -> (d0 * 4 + s0 floordiv 2, d0 mod 3)>
// CHECK-NEXT:#map2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT:#map3 = affine_map<(d0) -> (d0)>
// CHECK-NEXT:#set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-NEXT:#set1 = affine_set<(d0, d1) : (d0 - 96 >= 0, -d0 + 127 >= 0, d1 == 0)>
// CHECK-NEXT:module {
// CHECK-NEXT:  func.func private @combine(tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  func.func @kernel(%arg0: tensor<4x8xf32>, %arg1: index, %arg2: memref<16xf32, #map>) -> tensor<4xf32> attributes {index = #map1, order = #map2, space = #set, tile = [32, 1], window = #set1} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %cst = arith.constant 9.99999974E-6 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 0xFC00 : f16
// CHECK-NEXT:    %cst_1 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %reduced = linalg.reduce { arith.addf } ins(%arg0 : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) dimensions = [1]{{ }}
// CHECK-NEXT:    %reduced_2 = linalg.reduce { arith.maximumf } ins(%arg0 : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) dimensions = [1]{{ }}
// CHECK-NEXT:    %2 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]} ins(%reduced, %reduced_2 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%in: f32, %in_3: f32, %out: f32):
// CHECK-NEXT:      %6 = arith.subf %in, %in_3 : f32
// CHECK-NEXT:      linalg.yield %6 : f32
// CHECK-NEXT:    } -> tensor<4xf32>
// CHECK-NEXT:    %3:2 = scf.for %arg3 = %c0 to %arg1 step %c1 iter_args(%arg4 = %2, %arg5 = %1) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:      %6 = func.call @combine(%arg4) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      scf.yield %6, %arg5 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %4 = scf.for %arg3 = %c0 to %arg1 step %c1 iter_args(%arg4 = %3#1) -> (tensor<4xf32>) {
// CHECK-NEXT:      scf.yield %arg4 : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %arg3 = 0 to 10 {
// CHECK-NEXT:      %6 = affine.load %arg2[%arg3 + 1] : memref<16xf32, #map>
// CHECK-NEXT:      affine.store %6, %arg2[%arg3 * 2 + symbol(%arg1) - 1] : memref<16xf32, #map>
// CHECK-NEXT:    }
// CHECK-NEXT:    %5 = call @combine(%4) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %5 : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @branches(%arg0: i1, %arg1: f32) -> f32 {
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : f32), ^bb2
// CHECK-NEXT:  ^bb1(%0: f32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb2
// CHECK-NEXT:  ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    return %arg1 : f32
// CHECK-NEXT:  }
// CHECK-NEXT:}
// CHECK-NOT:{{.}}
