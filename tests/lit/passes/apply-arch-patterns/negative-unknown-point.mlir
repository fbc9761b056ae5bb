// The application point must be one of the four the pipeline knows, and must be
// given; the error lists them.

// RUN: not ktc-opt %s --arch toy -p 'apply-arch-patterns{point=pre_launch}' 2>&1 | filecheck %s
// RUN: not ktc-opt %s --arch toy -p apply-arch-patterns 2>&1 | filecheck %s --check-prefix=MISSING

// CHECK: error: invalid pass pipeline: unknown pattern point 'pre_launch' (expected one of pre_mapping, pre_scheduling, post_scheduling, post_lowering)
// MISSING: error: invalid pass pipeline: apply-arch-patterns requires argument "point"

func.func @empty() {
  func.return
}
