// `ktc run --check` on a kernel that reduces (a linalg.generic with a reduction
// iterator, 256 terms per row) compares with a tolerance from the element type and the
// reduction's length, and says which.

// RUN: ktc run %root/examples/row_sum.mlir --arch toy --check | filecheck %s
// CHECK: @row_sum: 8 tiles on @toy
// CHECK: check against the reference interpreter: |got - ref| <= rtol * (|ref| + max|finite ref|) (+ subnormal spacings) for reductions of 256 terms, rtol f16 0.00488, df16 0.0176, f32 1.07e-06, f64 2e-15; integers, NaN and infinities exact
// CHECK-NEXT: check passed: 2 arrays, 16448 elements
