// A lone parallel loop is not tiled, with or without tile sizes: tiling it would
// be strip-mining, which is not part of the pipeline. The loop is not even
// normalized.

// RUN: ktc-opt %s > %t.input
// RUN: ktc-opt %s -p tile-scf-for-loops | diff %t.input -
// RUN: ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=4,4}' | diff %t.input -
// RUN: filecheck %s < %t.input

func.func @single(%m: memref<64xf16>) {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c2 to %c64 step %c8 {
    %v = memref.load %m[%i] : memref<64xf16>
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @single(
// CHECK:         scf.for %{{.+}} = %c2 to %c64 step %c8 {
// CHECK-NOT:     ktdf.tiling
