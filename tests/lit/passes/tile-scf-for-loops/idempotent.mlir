// Tiling twice is tiling once: the loops a tiling made (tile loops, whose index
// feeds derive_size, and point loops, bounded by it) are not candidates again,
// in either mode.

// RUN: ktc-opt %s -p tile-scf-for-loops > %t.dynamic
// RUN: ktc-opt %t.dynamic -p tile-scf-for-loops | diff %t.dynamic -
// RUN: ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=4,2}' > %t.static
// RUN: ktc-opt %t.static -p 'tile-scf-for-loops{tile-sizes=4,2}' | diff %t.static -
// RUN: ktc-opt %t.static -p tile-scf-for-loops | diff %t.static -
// RUN: filecheck %s < %t.dynamic

func.func @twice(%m: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %m[%i, %j] : memref<16x16xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @twice(
// CHECK-COUNT-2: ktdf.tiling.reserve_size
// CHECK-NOT:     ktdf.tiling.reserve_size
