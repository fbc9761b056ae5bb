// linalg.reduce reads in MLIR's short form, `{ arith.addf }` naming the combining op
// (applied as `%init <op> %in`, attributes after the name), written on one line or
// over several as KTIR writes it, and in the region form. It prints as mlir-opt prints
// it: the short form whenever the body is that one op, with only a `fastmath` of
// `none` left out (so arith.addi shows its overflow flags), the region form otherwise,
// and the space MLIR leaves after `dimensions = [1]`. ktc's generic form reads back
// in mlir-opt to the same text.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s %}

// CHECK-LABEL: func.func @short_forms
// CHECK-NEXT:    %reduced = linalg.reduce { arith.addf } ins(%arg0 : tensor<1x1024xf16>) outs(%arg1 : tensor<1xf16>) dimensions = [1]{{ $}}
// CHECK-NEXT:    %reduced_0 = linalg.reduce { arith.maxnumf } ins(%arg0 : tensor<1x1024xf16>) outs(%arg1 : tensor<1xf16>) dimensions = [1]{{ $}}
// CHECK-NEXT:    %reduced_1 = linalg.reduce { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%arg0 : tensor<1x1024xf16>) outs(%arg1 : tensor<1xf16>) dimensions = [1]{{ $}}
// CHECK-NEXT:    %reduced_2 = linalg.reduce { arith.addi {overflowFlags = #arith.overflow<none>} } ins(%arg2 : tensor<8x16xi32>) outs(%arg3 : tensor<8xi32>) dimensions = [1]  {tag}
// CHECK-NEXT:    linalg.reduce { arith.mulf } ins(%arg4 : memref<8x16xf32>) outs(%arg5 : memref<f32>) dimensions = [0, 1]{{ $}}
// CHECK-NEXT:    return
// GENERIC-LABEL: "func.func"
// GENERIC:         "linalg.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT:    ^bb0(%[[IN:.*]]: f16, %[[INIT:.*]]: f16):
// GENERIC-NEXT:      %[[SUM:.*]] = "arith.addf"(%[[INIT]], %[[IN]]) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
// GENERIC-NEXT:      "linalg.yield"(%[[SUM]]) : (f16) -> ()
// GENERIC-NEXT:    }) : (tensor<1x1024xf16>, tensor<1xf16>) -> tensor<1xf16>
func.func @short_forms(%arg0: tensor<1x1024xf16>, %arg1: tensor<1xf16>, %arg2: tensor<8x16xi32>, %arg3: tensor<8xi32>, %arg4: memref<8x16xf32>, %arg5: memref<f32>) {
  %reduced = linalg.reduce { arith.addf }
    ins(%arg0 : tensor<1x1024xf16>)
    outs(%arg1 : tensor<1xf16>)
    dimensions = [1]
  %reduced_0 = linalg.reduce { arith.maxnumf } ins(%arg0 : tensor<1x1024xf16>) outs(%arg1 : tensor<1xf16>) dimensions = [1]
  %reduced_1 = linalg.reduce { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%arg0 : tensor<1x1024xf16>) outs(%arg1 : tensor<1xf16>) dimensions = [1]
  %reduced_2 = linalg.reduce { arith.addi } ins(%arg2 : tensor<8x16xi32>) outs(%arg3 : tensor<8xi32>) dimensions = [1] {tag}
  linalg.reduce { arith.mulf } ins(%arg4 : memref<8x16xf32>) outs(%arg5 : memref<f32>) dimensions = [0, 1]
  return
}

// A region whose one op takes the accumulator first prints in the short form; any
// other body keeps the region, indented as MLIR indents it.
// CHECK-LABEL: func.func @region_forms
// CHECK-NEXT:    %reduced = linalg.reduce { arith.minimumf } ins(%arg0 : tensor<8x16xf32>) outs(%arg1 : tensor<8xf32>) dimensions = [1]{{ $}}
// CHECK-NEXT:    %reduced_0 = linalg.reduce ins(%arg0 : tensor<8x16xf32>) outs(%arg1 : tensor<8xf32>) dimensions = [1]{{ $}}
// CHECK-NEXT:      (%in: f32, %init: f32) {
// CHECK-NEXT:        %0 = arith.subf %in, %init : f32
// CHECK-NEXT:        linalg.yield %0 : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    return
func.func @region_forms(%arg0: tensor<8x16xf32>, %arg1: tensor<8xf32>) {
  %reduced = linalg.reduce ins(%arg0 : tensor<8x16xf32>) outs(%arg1 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.minimumf %init, %in : f32
      linalg.yield %0 : f32
    }
  %reduced_0 = linalg.reduce ins(%arg0 : tensor<8x16xf32>) outs(%arg1 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.subf %in, %init : f32
      linalg.yield %0 : f32
    }
  return
}
