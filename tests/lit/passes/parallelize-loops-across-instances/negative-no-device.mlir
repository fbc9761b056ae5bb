// The number of instances is read from the device: a module with loops but no
// device (and no --arch) is rejected.

// RUN: not ktc-opt %s -p parallelize-loops-across-instances 2>&1 | filecheck %s

// CHECK: error: no device declared: pass --arch NAME|FILE or import a device file

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
