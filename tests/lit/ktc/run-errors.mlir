// `ktc run` fails with a one-line diagnostic, exit code 1 and no traceback: a missing
// scalar argument, a malformed --arg, an --inputs entry the kernel does not have, a
// simulator flag with --reference, an output that cannot be written. A failed run
// leaves none of its output files behind.

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
