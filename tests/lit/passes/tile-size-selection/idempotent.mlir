// Once every tile size is chosen there is nothing left to choose: a second run
// prints what the first did, and a module without reserve_size is left alone.

// RUN: ktc-opt %S/basic.mlir --arch toy -p tile-size-selection > %t
// RUN: ktc-opt %t -p tile-size-selection | diff %t -
// RUN: ktc-opt %s --arch toy -p tile-size-selection | filecheck %s

func.func @nothing(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  func.return
}

// CHECK:      func.func @nothing(%{{.+}}: index) {
// CHECK-NEXT:   %{{.+}} = arith.constant 0 : index
// CHECK-NEXT:   %{{.+}} = arith.constant 1 : index
// CHECK-NEXT:   scf.for
