// A size given by option must fit its placeholder: one size per reserve_size of
// the module, a multiple of its divisibility, at least its min_value, positive.

// RUN: not ktc-opt %s --arch toy -p 'tile-size-selection{sizes=8,8,8}' 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not ktc-opt %s --arch toy -p 'tile-size-selection{sizes=6,8}' 2>&1 | filecheck %s --check-prefix=DIVISIBILITY
// RUN: not ktc-opt %s --arch toy -p 'tile-size-selection{sizes=8,2}' 2>&1 | filecheck %s --check-prefix=MINIMUM
// RUN: not ktc-opt %s --arch toy -p 'tile-size-selection{sizes=8,0}' 2>&1 | filecheck %s --check-prefix=ZERO

// COUNT:        error: tile-size-selection was given 3 sizes, but the module has 2 'ktdf.tiling.reserve_size' ops
// DIVISIBILITY: negative-sizes.mlir:[[# @LINE + 5]]:3: error: tile size 6 is not allowed here: it must be a multiple of 4 and at least 1
// MINIMUM:      negative-sizes.mlir:[[# @LINE + 5]]:3: error: tile size 2 is not allowed here: it must be a multiple of 1 and at least 4
// ZERO:         error: invalid pass pipeline: sizes must be positive, got [8, 0]

func.func @sizes() {
  %a = ktdf.tiling.reserve_size {divisibility = 4 : index, min_value = 1 : index} : index
  %b = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 4 : index} : index
  func.return
}
