// A grid must be a non-empty list of positive sizes; otherwise the pass names
// the function.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics -p normalize-grid-to-1d

// expected-error@+1 {{grid of @empty must have at least one dimension}}
func.func @empty() attributes {grid = []} {
  func.return
}

// -----

// expected-error@+1 {{grid size must be positive (got 0) in @zero}}
func.func @zero() attributes {grid = [4, 0]} {
  func.return
}

// -----

// expected-error@+1 {{grid "rows" of @words is not a list of integers}}
func.func @words() attributes {grid = "rows"} {
  func.return
}
