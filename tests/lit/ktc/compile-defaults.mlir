// `ktc compile` takes the device as `ktc run` does: spyre unless --arch names another;
// the package records it. Printed IR names a packaged device by its name, never by a
// path of the machine (ktc-opt --arch spyre prints import("spyre")), and reads back.

// RUN: ktc compile %S/Inputs/add16.mlir -o %t.ktpkg
// RUN: ktc inspect %t.ktpkg | filecheck %s
// RUN: ktc-opt %S/Inputs/add16.mlir --arch spyre | filecheck %s --check-prefix=IMPORT
// RUN: ktc-opt %S/Inputs/add16.mlir --arch spyre > %t.mlir && ktc-opt %t.mlir -p ktir-legality-check | filecheck %s --check-prefix=IMPORT

// CHECK: arch: spyre (sha256
// IMPORT: ktdf_arch.device @spyre import("spyre"){{$}}
