// Nests that cannot be tiled as a whole stay as they are: an op between the
// loops (not a perfect nest), an inner bound computed from the outer index (not
// rectangular), a loop carrying a value, loops not marked parallel, and loops
// counting in i32 (the tiling ops take index).

// RUN: ktc-opt %s > %t.input
// RUN: ktc-opt %s -p tile-scf-for-loops | diff %t.input -
// RUN: filecheck %s < %t.input

func.func @imperfect(%m: memref<4x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %row = arith.muli %i, %c8 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %m[%row, %j] : memref<4x8xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

func.func @triangular(%m: memref<8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x8xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

func.func @carried(%m: memref<4x8xf16>, %init: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (f16) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %m[%i, %j] : memref<4x8xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    scf.yield %acc : f16
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return %r : f16
}

func.func @unmarked(%m: memref<4x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %m[%i, %j] : memref<4x8xf16>
    }
  }
  func.return
}

func.func @i32_loops() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    scf.for %j = %c0 to %c4 step %c1 : i32 {
      %s = arith.addi %i, %j : i32
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}

// CHECK-LABEL: func.func @imperfect(
// CHECK:         arith.muli
// CHECK-NEXT:    scf.for
// CHECK-LABEL: func.func @triangular(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %[[I]] step
// CHECK-LABEL: func.func @carried(
// CHECK:         iter_args
// CHECK-LABEL: func.func @unmarked(
// CHECK-LABEL: func.func @i32_loops(
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} : i32 {
// CHECK-NOT:   ktdf.tiling
