// `ktc run` takes a package as well as a kernel: it runs on the device it was compiled
// for, and any other device refuses it. The reference interpreter needs the KTIR
// kernel, so `--check` refuses a package.

// RUN: ktc compile %S/Inputs/add16.mlir --arch toy -o %t.ktpkg
// RUN: ktc run %t.ktpkg --arch toy --seed 3 | filecheck %s
// CHECK: @add: 2 tiles on @toy, {{[0-9]+}} cycles
// CHECK-NEXT: %a: f16[16x16] min {{.*}} (after the run; input drawn at random)

// RUN: not ktc run %t.ktpkg --arch spyre 2>&1 | filecheck %s --check-prefix=ARCH
// ARCH: error: the package was compiled for arch 'toy' (sha256 {{[0-9a-f]+}}...), not for this device's 'spyre' (sha256 {{[0-9a-f]+}}...)

// RUN: not ktc run %t.ktpkg --arch toy --check 2>&1 | filecheck %s --check-prefix=CHECK-PKG
// CHECK-PKG: .ktpkg: error: --check needs a KTIR kernel: the reference interpreter runs neither packages nor DataflowIR
