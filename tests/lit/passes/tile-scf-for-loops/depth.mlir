// At most four loops are tiled together: of a 5-deep parallel nest, the outer
// four are tiled and the fifth, alone, is not. With two tile sizes nests are two
// loops deep: the same loops are tiled as two nests of two, one inside the other,
// and the fifth stays whole inside the inner point loops.

// RUN: ktc-opt %s -p tile-scf-for-loops | filecheck %s --check-prefix=DYN
// RUN: ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=4,2}' | filecheck %s --check-prefix=STATIC

func.func @deep(%m: memref<2x2x2x2x2xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %a = %c0 to %c2 step %c1 {
    scf.for %b = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        scf.for %d = %c0 to %c2 step %c1 {
          scf.for %e = %c0 to %c2 step %c1 {
            %v = memref.load %m[%a, %b, %c, %d, %e] : memref<2x2x2x2x2xf16>
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// DYN-LABEL: func.func @deep(
// DYN-COUNT-4:   ktdf.tiling.reserve_size
// DYN-NOT:       ktdf.tiling.reserve_size
// DYN-COUNT-4:   ktdf.tiling.derive_size
// DYN-COUNT-4:   ktdf.tiling.linearize_index
// DYN-NEXT:      scf.for %[[E:.+]] = %{{.+}} to %{{.+}} step
// DYN-NEXT:        memref.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[E]]]

// STATIC-LABEL: func.func @deep(
// STATIC:         %[[C4:.+]] = arith.constant 4 : index
// STATIC-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// STATIC-NEXT:    arith.ceildivui %{{.+}}, %[[C4]] : index
// STATIC-NEXT:    arith.ceildivui %{{.+}}, %[[C2]] : index
// STATIC:         %[[A:.+]] = ktdf.tiling.linearize_index [%{{.+}} : %[[C4]]], [%{{.+}} : %{{.+}}] : index
// STATIC-NEXT:    %[[B:.+]] = ktdf.tiling.linearize_index [%{{.+}} : %[[C2]]], [%{{.+}} : %{{.+}}] : index
// STATIC-NEXT:    %[[C4B:.+]] = arith.constant 4 : index
// STATIC-NEXT:    %[[C2B:.+]] = arith.constant 2 : index
// STATIC-NEXT:    arith.ceildivui %{{.+}}, %[[C4B]] : index
// STATIC-NEXT:    arith.ceildivui %{{.+}}, %[[C2B]] : index
// STATIC:         %[[C:.+]] = ktdf.tiling.linearize_index [%{{.+}} : %[[C4B]]], [%{{.+}} : %{{.+}}] : index
// STATIC-NEXT:    %[[D:.+]] = ktdf.tiling.linearize_index [%{{.+}} : %[[C2B]]], [%{{.+}} : %{{.+}}] : index
// STATIC-NEXT:    scf.for %[[E:.+]] = %{{.+}} to %{{.+}} step
// STATIC-NEXT:      memref.load %{{.+}}[%[[A]], %[[B]], %[[C]], %[[D]], %[[E]]]
