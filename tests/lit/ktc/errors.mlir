// `ktc compile` and `ktc inspect` fail with a one-line diagnostic and exit code 1:
// a device that does not exist, an output that cannot be written (and nothing left
// behind), a file that is not a package, a truncated package and a package whose
// bytes were changed after it was written.

// RUN: not ktc compile %S/Inputs/halve.mlir --arch nodevice -o %t.ktpkg 2>&1 | filecheck %s --check-prefix=ARCH
// ARCH: error: {{.*}}nodevice

// RUN: not ktc compile %S/Inputs/halve.mlir --arch toy -o %t.missing/out.ktpkg 2>&1 | filecheck %s --check-prefix=WRITE
// WRITE: error: cannot write '{{.*}}out.ktpkg': No such file or directory

// RUN: not ktc inspect %s 2>&1 | filecheck %s --check-prefix=MAGIC
// MAGIC: errors.mlir: error: invalid package: not a ktc package (bad magic number)

// RUN: ktc compile %S/Inputs/halve.mlir --arch toy -o %t.ktpkg
// RUN: head -c 100 %t.ktpkg > %t.short
// RUN: not ktc inspect %t.short 2>&1 | filecheck %s --check-prefix=SHORT
// SHORT: error: invalid package: truncated: the section table of {{[0-9]+}} sections does not fit

// RUN: %python -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[-1] ^= 1; open(sys.argv[2], 'wb').write(d)" %t.ktpkg %t.flipped
// RUN: not ktc inspect %t.flipped 2>&1 | filecheck %s --check-prefix=FLIP
// FLIP: error: invalid package: section 'code.0.4' checksum mismatch
