// A 4 x 6 grid becomes 24 tiles in a row: the kernel and its program both get
// grid = [24], and the program's two coordinates are rebuilt from the flat tile
// id with x fastest, as the reference interpreter numbers tiles (x = id % 4,
// y = id / 4; IBM's pass would make y fastest). A 2 x 1 x 3 grid shows the edge
// cases: a dimension of size 1 is the constant 0, the first needs no division
// and the last no remainder. One coordinate asked of a 32 x 2 grid is x, as in
// KTIR; asked of a 32 x 1 grid it is the flat id itself. A 1-D grid is left as
// it is.

// RUN: ktc-opt %s -p normalize-grid-to-1d | filecheck %s

module {
  func.func @kernel(%a: index) attributes {grid = [4, 6]} {
    func.call @local_schedule_0(%a) : (index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index)
}
module @local_schedule_0 {
  func.func private @use(index, index)
  func.func @local_schedule_0(%a: index) attributes {grid = [4, 6]} {
    %tile:2 = ktdp.get_compute_tile_id : index, index
    func.call @use(%tile#0, %tile#1) : (index, index) -> ()
    func.return
  }
}
module @three {
  func.func private @use(index, index, index)
  func.func @three() attributes {grid = [2, 1, 3]} {
    %t:3 = ktdp.get_compute_tile_id : index, index, index
    func.call @use(%t#0, %t#1, %t#2) : (index, index, index) -> ()
    func.return
  }
}
module @first {
  func.func private @use(index)
  func.func @first() attributes {grid = [32, 2]} {
    %t = ktdp.get_compute_tile_id : index
    func.call @use(%t) : (index) -> ()
    func.return
  }
}
module @column {
  func.func private @use(index)
  func.func @column() attributes {grid = [32, 1]} {
    %t = ktdp.get_compute_tile_id : index
    func.call @use(%t) : (index) -> ()
    func.return
  }
}
module @flat {
  func.func private @use(index)
  func.func @flat() attributes {grid = [32]} {
    %t = ktdp.get_compute_tile_id : index
    func.call @use(%t) : (index) -> ()
    func.return
  }
}

// CHECK:       func.func @kernel(%{{.*}}: index) attributes {grid = [24]}
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      attributes {grid = [24]}
// CHECK-NEXT:    %[[ID:.+]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[X:.+]] = arith.remui %[[ID]], %[[C4]] : index
// CHECK-NEXT:    %[[Y:.+]] = arith.divui %[[ID]], %[[C4]] : index
// CHECK-NEXT:    call @use(%[[X]], %[[Y]])

// CHECK-LABEL: func.func @three()
// CHECK-SAME:      attributes {grid = [6]}
// CHECK-NEXT:    %[[ID:.+]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[X:.+]] = arith.remui %[[ID]], %[[C2]] : index
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[Z:.+]] = arith.divui %[[ID]], %[[C2]] : index
// CHECK-NEXT:    call @use(%[[X]], %[[C0]], %[[Z]])

// CHECK-LABEL: func.func @first()
// CHECK-SAME:      attributes {grid = [64]}
// CHECK-NEXT:    %[[ID:.+]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[C32:.+]] = arith.constant 32 : index
// CHECK-NEXT:    %[[X:.+]] = arith.remui %[[ID]], %[[C32]] : index
// CHECK-NEXT:    call @use(%[[X]])

// CHECK-LABEL: func.func @column()
// CHECK-SAME:      attributes {grid = [32]}
// CHECK-NEXT:    %[[ID:.+]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    call @use(%[[ID]])

// CHECK-LABEL: func.func @flat()
// CHECK-SAME:      attributes {grid = [32]}
// CHECK-NEXT:    %[[ID:.+]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    call @use(%[[ID]])
