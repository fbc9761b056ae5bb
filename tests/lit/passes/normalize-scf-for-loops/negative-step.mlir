// A loop whose constant step is not positive cannot be normalized (scf.for
// requires a positive step); the error points at the loop.

// RUN: ktc-opt %s -p normalize-scf-for-loops --split-input-file --verify-diagnostics

func.func @zero_step(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{'scf.for' step must be positive, got 0}}
  scf.for %i = %c0 to %c8 step %c0 {
    %v = memref.load %m[%i] : memref<8xf32>
  }
  func.return
}

// -----

func.func @negative_step(%m: memref<8xf32>) {
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  // expected-error@+1 {{'scf.for' step must be positive, got -1}}
  scf.for %i = %c8 to %c0 step %cm1 {
    %v = memref.load %m[%i] : memref<8xf32>
  }
  func.return
}
