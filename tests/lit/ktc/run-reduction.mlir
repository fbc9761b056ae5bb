// `ktc run --check` on a kernel that reduces (a linalg.generic with a reduction
// iterator) compares with the tolerance of its float type, and says so.

// RUN: ktc run %root/examples/row_sum.mlir --arch toy --check | filecheck %s
// CHECK: @row_sum: 8 tiles on @toy
// CHECK: check against the reference interpreter: f16/df16 within 2^-6, f32/f64 within 1e-5, relative + absolute (scaled by the largest reference magnitude); integers bit-exact (the kernel reduces)
// CHECK-NEXT: check passed: 2 arrays, 16448 elements
