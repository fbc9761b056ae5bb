// A dynamic size with a bound is laid out at its bound: the rows of a tile
// (derive_size, at most the tile of 4 rows) and a loop index plus one (at most
// 8) give 4 x 64 and 8 x 64 f16, so the second buffer starts at 512.

// RUN: ktc-opt %s --arch toy -p address-assignment | filecheck %s

func.func @bounded() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c30 = arith.constant 30 : index
  scf.for %t = %c0 to %c8 step %c1 {
    %rows = ktdf.tiling.derive_size [%t : %c4], total_size = %c30 : index
    %count = arith.addi %t, %c1 : index
    %a = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %b = memref.alloc(%count) : memref<?x64xf16, "L1">
  }
  func.return
}

// CHECK: memref.alloc(%{{.+}}) {ktdf.address = 0 : i64} : memref<?x64xf16, "L1">
// CHECK: memref.alloc(%{{.+}}) {ktdf.address = 512 : i64} : memref<?x64xf16, "L1">
