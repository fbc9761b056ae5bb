// The patterns come from the device, so a module that declares none (and no
// --arch) cannot have them applied.

// RUN: not ktc-opt %s -p 'apply-arch-patterns{point=pre_scheduling}' 2>&1 | filecheck %s

// CHECK: error: no device declared: pass --arch NAME|FILE or import a device file

func.func @exp(%x: f16) -> f16 {
  %e = spyreop.exp %x : f16
  func.return %e : f16
}
