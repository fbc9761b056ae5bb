// --arch gives a module that declares no device a declaration importing the named
// device file, at the top of the module; a module that declares one keeps it and
// ktc-opt warns that --arch is ignored. A file holding no device or several, a
// missing file, a broken device and an unknown device name are errors naming the
// file or the name.

// RUN: ktc-opt %s --split-input-file --arch %S/Inputs/tiny_device.mlir 2> %t.err | filecheck %s
// RUN: filecheck %s --check-prefix=WARN < %t.err
// RUN: not ktc-opt %s --split-input-file --arch nosuchchip 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/no_device.mlir 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/two_devices.mlir 2>&1 | filecheck %s --check-prefix=MULTI
// RUN: not ktc-opt %s --split-input-file --arch %S/Inputs/broken_device.mlir 2>&1 | filecheck %s --check-prefix=BROKEN

// CHECK:      ktdf_arch.device @tiny import("{{.*}}Inputs/tiny_device.mlir"){{$}}
// CHECK-NEXT: func.func @kernel()

// UNKNOWN:    error: unknown device 'nosuchchip' (available: {{.*}})
// MISSING:    {{.*}}Inputs/missing.mlir: error: device file not found
// NONE:       {{.*}}Inputs/no_device.mlir: error: no device in import file
// MULTI:      {{.*}}Inputs/two_devices.mlir: error: multiple devices in import file
// BROKEN:     {{.*}}Inputs/broken_device.mlir:4:3: error: 'ktdf_arch.memory' op requires attribute 'kind'

func.func @kernel() {
  func.return
}

// -----

// CHECK:      ktdf_arch.device @mine import("mine.mlir"){{$}}
// CHECK-NOT:  @tiny
// CHECK:      func.func @other_kernel()
// WARN:       arch-flag.mlir:[[# @LINE + 1]]:1: warning: module already declares device @mine; ignoring device '{{.*}}Inputs/tiny_device.mlir'
ktdf_arch.device @mine import("mine.mlir")

func.func @other_kernel() {
  func.return
}
