// `ktc run` fails with a one-line diagnostic, exit code 1 and no traceback: a missing
// scalar argument, a malformed --arg, an --arg given twice, a scalar out of its type's
// range, a seed or a cycle budget out of range, an --inputs file that is not an
// .npz archive, an --inputs entry the kernel does not have, random inputs of negative
// size or past the stated limit of 4 GiB or, for the simulator, past its device memory
// (checked before anything is drawn, for a kernel and for a package), a simulator flag with --reference, a package with
// --reference, an output that cannot be written. A failed run leaves none of its output
// files behind.

// RUN: ktc compile %S/Inputs/add16.mlir --arch toy -o %t.add.ktpkg
// RUN: not ktc run %t.add.ktpkg --reference 2>&1 | filecheck %s --check-prefix=PACKAGE
// PACKAGE: add.ktpkg: error: --reference runs a KTIR kernel, not a package

// RUN: not ktc run %S/Inputs/scale_n.mlir --arch toy --arg n=16 --arg n=32 --arg k=1 2>&1 | filecheck %s --check-prefix=TWICE
// TWICE: error: --arg n=32: %n is given twice

// RUN: not ktc run %S/Inputs/scale_n.mlir --reference --arg n=16 --arg k=70000 2>&1 | filecheck %s --check-prefix=F16
// F16: error: --arg k=70000: 70000 is out of the range of f16
// RUN: not ktc run %S/Inputs/scale_n.mlir --reference --arg n=16 --arg k=1e400 2>&1 | filecheck %s --check-prefix=HUGE
// HUGE: error: --arg k=1e400: 1e400 is out of the range of f16
// RUN: not ktc run %S/Inputs/scale_n.mlir --reference --arg n=0x10000000000000000 --arg k=1 2>&1 | filecheck %s --check-prefix=INDEX
// INDEX: error: --arg n=0x10000000000000000: 0x10000000000000000 does not fit index

// RUN: not ktc run %S/Inputs/scale_n.mlir --reference --arg n=16 --arg k=1 --seed -1 2>&1 | filecheck %s --check-prefix=SEED
// SEED: error: argument --seed: -1 is out of range; a seed is an integer from 0 to 4611686018427387904
// RUN: not ktc run %S/Inputs/add16.mlir --arch toy --max-cycles 0 2>&1 | filecheck %s --check-prefix=BUDGET
// BUDGET: error: argument --max-cycles: 0 is out of range; a cycle budget is an integer from 1 to 4611686018427387904
// RUN: not ktc run %S/Inputs/add16.mlir --arch toy --max-cycles 1000000000000000000000000000000 2>&1 | filecheck %s --check-prefix=HUGE-BUDGET
// HUGE-BUDGET: error: argument --max-cycles: 1000000000000000000000000000000 is out of range

// RUN: not ktc run %S/Inputs/scale_n.mlir --reference --arg n=-1 --arg k=1 2>&1 | filecheck %s --check-prefix=NEGATIVE-KTIR
// RUN: not ktc run %S/Inputs/scale_n.mlir --arch toy --arg n=-1 --arg k=1 2>&1 | filecheck %s --check-prefix=NEGATIVE-KTIR
// NEGATIVE-KTIR: scale_n.mlir:7:{{[0-9]+}}: error: the memory view of argument %a would have the sizes [-1] on core 0; sizes must not be negative
// RUN: ktc compile %S/Inputs/scale_n.mlir --arch toy -o %t.scale.ktpkg
// RUN: not ktc run %t.scale.ktpkg --arch toy --arg n=-1 --arg k=1 2>&1 | filecheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: argument %a would have the shape [-1] (with %n = -1, %k = 1.0); sizes must not be negative
// RUN: not ktc run %S/Inputs/scale_n.mlir --reference --arg n=0x8000000000 --arg k=1 2>&1 | filecheck %s --check-prefix=LIMIT
// LIMIT: error: the random inputs would take 1099511627776 bytes, more than the limit of 4294967296 (4 GiB)
// RUN: not ktc run %t.scale.ktpkg --arch toy --arg n=0x8000000000 --arg k=1 2>&1 | filecheck %s --check-prefix=ROOM-PACKAGE
// ROOM-PACKAGE: error: the random inputs would take 1099511627776 bytes, more than the device memory's 1048576; give smaller sizes
// RUN: not ktc run %S/Inputs/scale_n.mlir --arch toy --arg n=0x100000 --arg k=1 2>&1 | filecheck %s --check-prefix=ROOM
// ROOM: error: the random inputs would take 2097152 bytes, more than the device memory's 1048576; give smaller sizes

// RUN: %python -c "import sys; open(sys.argv[1], 'wb').write(b'not numpy')" %t.bad.npz
// RUN: not ktc run %S/Inputs/add16.mlir --arch toy --inputs %t.bad.npz 2>&1 | filecheck %s --check-prefix=NPZ
// NPZ: bad.npz: error: cannot read inputs: not an .npz archive (write one with numpy.savez)

// RUN: not ktc run %root/examples/layernorm.mlir --arch toy 2>&1 | filecheck %s --check-prefix=SCALAR
// SCALAR: error: no value for scalar argument %eps; pass --arg eps=VALUE

// RUN: not ktc run %S/Inputs/add16.mlir --arch toy --arg a=1 2>&1 | filecheck %s --check-prefix=POINTER
// POINTER: error: --arg a=1: %a is a pointer; give its array in --inputs

// RUN: %python -c "import numpy as np, sys; np.savez(sys.argv[1], z=np.ones(4, np.float16))" %t.in.npz
// RUN: not ktc run %S/Inputs/add16.mlir --arch toy --inputs %t.in.npz 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: in.npz: @add has no argument %z

// RUN: not ktc run %S/Inputs/add16.mlir --reference --report 2>&1 | filecheck %s --check-prefix=REFERENCE
// REFERENCE: error: --report needs the simulator; drop --reference

// RUN: not ktc run %S/Inputs/add16.mlir --arch toy --save-outputs %t.missing/out.npz 2>&1 | filecheck %s --check-prefix=WRITE
// WRITE: error: cannot write '{{.*}}out.npz': No such file or directory

// RUN: rm -rf %t.out && mkdir %t.out
// RUN: ktc compile %S/Inputs/add16.mlir --arch toy -o %t.ktpkg
// RUN: not ktc run %t.ktpkg --arch spyre --save-outputs %t.out/o.npz --report-json %t.out/r.json --trace %t.out/t.json 2>&1 | filecheck %s --check-prefix=ARCH
// ARCH: error: the package was compiled for arch 'toy'
// RUN: %python -c "import os, sys; print(os.listdir(sys.argv[1]))" %t.out | filecheck %s --check-prefix=EMPTY
// EMPTY: []
