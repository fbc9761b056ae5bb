// Tile sizes that cannot describe a tiling are refused before any IR is touched:
// a single size (that would be strip-mining), more sizes than the four loops
// tiled together, a size below 1, and a size that is not a number.

// RUN: not ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=8}' 2>&1 | filecheck %s --check-prefix=ONE
// RUN: not ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=1,2,3,4,5}' 2>&1 | filecheck %s --check-prefix=FIVE
// RUN: not ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=4,0}' 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=4,-2}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// RUN: not ktc-opt %s -p 'tile-scf-for-loops{tile-sizes=four,2}' 2>&1 | filecheck %s --check-prefix=WORD

// ONE:      error: invalid pass pipeline: tile-sizes needs a size for each of 2 to 4 nested loops; one loop alone would be strip-mined, which this pass does not do
// FIVE:     error: invalid pass pipeline: tile-sizes gives 5 sizes, but at most 4 loops are tiled together
// ZERO:     error: invalid pass pipeline: tile-sizes must be positive, got [4, 0]
// NEGATIVE: error: invalid pass pipeline: tile-sizes must be positive, got [4, -2]
// WORD:     error: invalid pass pipeline: {{.*}}expected tuple[int, ...]

func.func @nest(%m: memref<8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %m[%i, %j] : memref<8x8xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  func.return
}
