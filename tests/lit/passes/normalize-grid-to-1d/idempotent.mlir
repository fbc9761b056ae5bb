// Flattening a flat grid changes nothing: a second run prints what the first did.

// RUN: ktc-opt %s -p normalize-grid-to-1d > %t
// RUN: ktc-opt %t -p normalize-grid-to-1d | diff %t -
// RUN: filecheck %s < %t

func.func private @use(index, index)
func.func @kernel() attributes {grid = [2, 16]} {
  %tile:2 = ktdp.get_compute_tile_id : index, index
  func.call @use(%tile#0, %tile#1) : (index, index) -> ()
  func.return
}

// CHECK:      attributes {grid = [32]}
// CHECK-NEXT:   ktdp.get_compute_tile_id : index
// CHECK-NEXT:   arith.constant 2 : index
