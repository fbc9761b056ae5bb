// Reduction loops are never tiled and end a nest: a parallel loop around a
// reduction loop is a lone loop (not tiled), while the two parallel loops inside
// a reduction loop form a nest of their own and are tiled.

// RUN: ktc-opt %s -p tile-scf-for-loops | filecheck %s

func.func @parallel_over_reduction(%m: memref<4x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %m[%i, %k] : memref<4x16xf16>
    } {loop_type = #ktdf.loop_type<reduction_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @parallel_over_reduction(
// CHECK-NOT:     ktdf.tiling
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    return

func.func @reduction_over_parallel(%m: memref<16x4x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %k = %c0 to %c16 step %c1 {
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %v = memref.load %m[%k, %i, %j] : memref<16x4x8xf16>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  func.return
}

// CHECK-LABEL: func.func @reduction_over_parallel(
// CHECK-NOT:     ktdf.tiling
// CHECK:         scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      ktdf.tiling.reserve_size
// CHECK-NEXT:      ktdf.tiling.reserve_size
// CHECK-NEXT:      arith.ceildivui
// CHECK-NEXT:      arith.ceildivui
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          ktdf.tiling.derive_size
// CHECK-NEXT:          ktdf.tiling.derive_size
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            scf.for
// CHECK-NEXT:              %[[I:.+]] = ktdf.tiling.linearize_index
// CHECK-NEXT:              %[[J:.+]] = ktdf.tiling.linearize_index
// CHECK-NEXT:              memref.load %{{.+}}[%[[K]], %[[I]], %[[J]]] : memref<16x4x8xf16>
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
