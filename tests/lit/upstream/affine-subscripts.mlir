// In affine.load / affine.store subscripts a bare value is a dimension and
// `symbol(%n)` a symbol, as in MLIR (xDSL's own parser makes every value a symbol,
// which real MLIR rejects for a loop induction variable). The generic form carries
// the map MLIR builds, `(d0)[s0] -> (d0 + s0 + 1)` with the dimensions' operands
// first, and mlir-opt accepts it and reads it back to the same subscripts.
// affine.apply and affine.min print `#map(%i)` without a space, as MLIR does.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir %{ %mlir-opt %s | filecheck %s %}
// RUN: %if mlir %{ ktc-opt %s --print-op-generic | %mlir-opt | filecheck %s %}

// CHECK:       #map = affine_map<(d0) -> (d0 + 1)>
// CHECK-LABEL: func.func @subscripts
// CHECK:         affine.for %arg2 = 0 to 10 {
// CHECK-NEXT:      %0 = affine.load %arg0[%arg2 + symbol(%arg1) + 1] : memref<16xf32>
// CHECK-NEXT:      %1 = affine.apply #map(%arg2)
// CHECK-NEXT:      %2 = affine.load %arg0[%1 * 2 - symbol(%arg1)] : memref<16xf32>
// CHECK-NEXT:      affine.store %0, %arg0[%arg2 floordiv 2] : memref<16xf32>
// CHECK-NEXT:      %3 = affine.min #map(%arg2)
// CHECK-NEXT:    }

// GENERIC-DAG: #[[PLUS_ONE:map[0-9]*]] = affine_map<(d0) -> (d0 + 1)>
// GENERIC-DAG: #[[LOAD:map[0-9]*]] = affine_map<(d0)[s0] -> (d0 + s0 + 1)>
// GENERIC-DAG: #[[HALF:map[0-9]*]] = affine_map<(d0) -> (d0 floordiv 2)>
// GENERIC:     "affine.load"(%arg0, %arg2, %arg1) <{map = #[[LOAD]]}>
// GENERIC:     "affine.apply"(%arg2) <{map = #[[PLUS_ONE]]}>
// GENERIC:     "affine.store"(%{{.*}}, %arg0, %arg2) <{map = #[[HALF]]}>
func.func @subscripts(%arg0: memref<16xf32>, %arg1: index) {
  affine.for %arg2 = 0 to 10 {
    %0 = affine.load %arg0[%arg2 + 1 + symbol(%arg1)] : memref<16xf32>
    %1 = affine.apply affine_map<(d0) -> (d0 + 1)> (%arg2)
    %2 = affine.load %arg0[2 * %1 - symbol(%arg1)] : memref<16xf32>
    affine.store %0, %arg0[%arg2 floordiv 2] : memref<16xf32>
    %3 = affine.min affine_map<(d0) -> (d0 + 1)>(%arg2)
  }
  return
}
