// sizes= overrides the cost model, one size per reserve_size in program order,
// here 3 rows and 8 columns of a 2-D tiling (as tile-scf-for-loops leaves it).
// 3 does not divide 32, so the row count of a tile stays a derive_size (3, or 2
// in the last tile); 8 divides 64 and folds. The choice is recorded as "option",
// with the model's estimate of it.

// RUN: ktc-opt %s --arch toy -p 'tile-size-selection{sizes=3,8}' | filecheck %s

module @local_schedule_0 {
  func.func private @tile(index, index)
  func.func @local_schedule_0(%m: memref<32x64xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %ti = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %tj = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %ni = arith.ceildivui %c32, %ti : index
    %nj = arith.ceildivui %c64, %tj : index
    scf.for %i = %c0 to %ni step %c1 {
      scf.for %j = %c0 to %nj step %c1 {
        %si = ktdf.tiling.derive_size [%i : %ti], total_size = %c32 : index
        %sj = ktdf.tiling.derive_size [%j : %tj], total_size = %c64 : index
        func.call @tile(%si, %sj) : (index, index) -> ()
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      ktdf.tile_sizes = {chosen_by = "option", estimated_cycles = 0 : i64, sizes = array<i64: 3, 8>}
// CHECK:         %[[TI:.+]] = arith.constant {ktdf.tile_size = "option"} 3 : index
// CHECK-NEXT:    %[[TJ:.+]] = arith.constant {ktdf.tile_size = "option"} 8 : index
// CHECK-NEXT:    %[[NI:.+]] = arith.constant 11 : index
// CHECK-NEXT:    %[[NJ:.+]] = arith.constant 8 : index
// CHECK-NEXT:    scf.for %[[I:.+]] = %{{.+}} to %[[NI]] step
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %[[NJ]] step
// CHECK-NEXT:        %[[SI:.+]] = ktdf.tiling.derive_size [%[[I]] : %[[TI]]], total_size = %{{.+}} : index
// CHECK-NEXT:        %[[SJ:.+]] = arith.constant 8 : index
// CHECK-NEXT:        call @tile(%[[SI]], %[[SJ]])
