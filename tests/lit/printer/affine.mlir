// Affine maps and integer sets print in MLIR's canonical form behind aliases: #map,
// #map1, ... then #set, #set1, ..., numbered in order of first use, one alias per
// distinct map (a and h share #map), and none for maps printed as subscripts. Sums
// read as subtractions, products bind tighter, constants fold and go last, `<=` and
// `==` constraints become `expr >= 0` / `expr == 0`, an empty set is `(0 == 0)`.
// mlir-opt prints the same, except where xDSL's parser has already multiplied out a
// product of a sum (g): ktc prints the expanded form, which mlir-opt then keeps.

// RUN: ktc-opt %s --allow-unregistered-dialect | filecheck %s --check-prefixes=CHECK,KTC
// RUN: ktc-opt %s --allow-unregistered-dialect | ktc-opt --allow-unregistered-dialect | filecheck %s --check-prefixes=CHECK,KTC
// RUN: %if mlir %{ %mlir-opt %s --allow-unregistered-dialect | filecheck %s --check-prefixes=CHECK,MLIR %}
// RUN: %if mlir %{ ktc-opt %s --allow-unregistered-dialect | %mlir-opt --allow-unregistered-dialect | filecheck %s --check-prefixes=CHECK,KTC %}

// CHECK:      #map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 + 3, -d0 + d1 * 2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d0 - d1, d0 - d1 * 3, -d0, d0 * -2 + 5, -d1 - 1)>
// CHECK-NEXT: #map2 = affine_map<(d0)[s0] -> (d0 floordiv 4, d0 ceildiv 8, d0 mod 3, (d0 floordiv 4) * 4, d0 * 2, (d0 + s0) mod 5, d0 - d0 mod 4)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1) -> (d0 * 5, 5, d0, d1, 0)>
// CHECK-NEXT: #map4 = affine_map<() -> ()>
// CHECK-NEXT: #map5 = affine_map<(d0) -> (7)>
// KTC-NEXT:   #map6 = affine_map<(d0, d1) -> (d0 * 4 + 4, d0 - d1 - 2)>
// MLIR-NEXT:  #map6 = affine_map<(d0, d1) -> ((d0 + 1) * 4, d0 - (d1 + 2))>
// CHECK-NEXT: #map7 = affine_map<(d0) -> (d0 + 2)>
// CHECK-NEXT: #set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 - s0 >= 0, -d1 + s0 * 2 - 1 >= 0)>
// CHECK-NEXT: #set1 = affine_set<(d0) : (-d0 + 5 >= 0, d0 - 3 == 0, d0 - 96 >= 0)>
// CHECK-NEXT: #set2 = affine_set<() : (0 == 0)>
// CHECK-NEXT: #set3 = affine_set<(d0, d1) : (-d0 >= 0, d1 >= 0)>
// CHECK-NEXT: module {
// CHECK-NEXT:   "test.op"() {a = #map, b = #map1, c = #map2, d = #map3, e = #map4, f = #map5, g = #map6, h = #map, s0 = #set, s1 = #set1, s2 = #set2, s3 = #set3} : () -> ()
"test.op"() {
  a = affine_map<(d0, d1)[s0] -> (s0 + d0, 3 + d1, -d0 + d1 * 2)>,
  b = affine_map<(d0, d1) -> (d0 - d1, d0 - d1 * 3, -d0, d0 * -2 + 5, 0 - d1 - 1)>,
  c = affine_map<(d0)[s0] -> (d0 floordiv 4, d0 ceildiv 8, d0 mod 3, (d0 floordiv 4) * 4, (d0 * 4) floordiv 2, (d0 + s0) mod 5, d0 - d0 mod 4)>,
  d = affine_map<(d0, d1) -> (d0 * 2 + d0 * 3, 2 + 3, d0 + 0, d1 * 1, d0 * 0)>,
  e = affine_map<() -> ()>,
  f = affine_map<(d0) -> (7)>,
  g = affine_map<(d0, d1) -> ((d0 + 1) * 4, d0 - (d1 + 2))>,
  h = affine_map<(d0, d1)[s0] -> (s0 + d0, 3 + d1, -d0 + d1 * 2)>,
  s0 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 - s0 >= 0, -d1 + 2*s0 - 1 >= 0)>,
  s1 = affine_set<(d0) : (d0 <= 5, d0 == 3, d0 >= 96)>,
  s2 = affine_set<() : ()>,
  s3 = affine_set<(d0, d1) : (-d0 + 0 >= 0, d1 >= 0)>
} : () -> ()

// A map in a memref layout is aliased; the subscripts of affine.load are not.
// CHECK:        func.func @subscripts(%{{.*}}: memref<16xf32, #map7>, %[[N:.*]]: index) {
// CHECK:          affine.for %[[I:.*]] = 0 to 10 {
// CHECK-NEXT:       affine.load %{{.*}}[%[[I]] floordiv 2 + symbol(%[[N]]) - 1] : memref<16xf32, #map7>
func.func @subscripts(%m: memref<16xf32, affine_map<(d0) -> (d0 + 2)>>, %n: index) {
  affine.for %i = 0 to 10 {
    %v = affine.load %m[-1 + %i floordiv 2 + symbol(%n)] : memref<16xf32, affine_map<(d0) -> (d0 + 2)>>
  }
  return
}
