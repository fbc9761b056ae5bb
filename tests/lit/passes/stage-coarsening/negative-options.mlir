// A loop-nest-depth below 1 would sink nothing; it is refused.

// RUN: not ktc-opt %s -p 'stage-coarsening{loop-nest-depth=0}' 2>&1 | filecheck %s

// CHECK: error: invalid pass pipeline: loop-nest-depth must be at least 1, got 0

func.func @empty() {
  func.return
}
