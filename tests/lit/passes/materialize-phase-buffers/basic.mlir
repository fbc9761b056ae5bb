// A program with loops, as compute-group-extraction leaves a kernel whose loops
// carry data: it divides a row by its sum, the sum accumulated block by block in an
// scf.for with iter_args. The program splits into phases at the loops. The
// accumulator lives in a scratchpad buffer ("L1" on toy, "SPM" on the line of four
// cores), allocated at the program's start with an access tile of all of it: the
// zero block is stored to it before the loop, loaded and stored back in each
// iteration (the loop becomes a reduction loop without iter_args) and loaded after
// it. The sum crosses into the second loop through a one-element buffer, stored
// right after it is made; the extract and the splat of it are made again inside the
// loop. Tensors that stay in their phase (the loaded blocks, the quotient) are left
// as they are.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers | filecheck %s
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p materialize-phase-buffers | filecheck %s --check-prefix=LINE4

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%X: index, %Y: index, %S: index, %row: index, %n: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %x_view = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %y_view = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %s_view = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %zero_block = arith.constant dense<0.0> : tensor<1x16xf16>
    %partial = scf.for %col = %c0 to %n step %c16 iter_args(%acc = %zero_block) -> (tensor<1x16xf16>) {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %next = arith.addf %acc, %x : tensor<1x16xf16>
      scf.yield %next : tensor<1x16xf16>
    }
    %zero = arith.constant 0.0 : f16
    %init = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%partial : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %s_tile = ktdp.construct_access_tile %s_view[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %s_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    %sum_scalar = tensor.extract %sum[%c0] : tensor<1xf16>
    %sum_block = tensor.splat %sum_scalar : tensor<1x16xf16>
    scf.for %col = %c0 to %n step %c16 {
      %x_tile = ktdp.construct_access_tile %x_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%row, %col] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x16xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
      %y = arith.divf %x, %sum_block : tensor<1x16xf16>
      ktdp.store %y, %y_tile : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    }
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NEXT:    %[[ACC:.+]] = memref.alloc() : memref<1x16xf16, "L1">
// CHECK-NEXT:    %[[ACC_TILE:.+]] = ktdp.construct_access_tile %[[ACC]][0, 0] {{.*}} : memref<1x16xf16, "L1"> -> !ktdp.access_tile<1x16xindex>
// CHECK-NEXT:    %[[SUM:.+]] = memref.alloc() : memref<1xf16, "L1">
// CHECK-NEXT:    %[[SUM_TILE:.+]] = ktdp.construct_access_tile %[[SUM]][0] {{.*}} : memref<1xf16, "L1"> -> !ktdp.access_tile<1xindex>
// The accumulator: stored before the loop, loaded and stored in each iteration,
// loaded after it.
// CHECK:         %[[ZERO_BLOCK:.+]] = arith.constant dense<0.000000e+00> : tensor<1x16xf16>
// CHECK-NEXT:    ktdp.store %[[ZERO_BLOCK]], %[[ACC_TILE]]
// CHECK-NEXT:    scf.for %{{.+}} = %c0 to %n step %c16 {
// CHECK-NEXT:      %[[A:.+]] = ktdp.load %[[ACC_TILE]] : <1x16xindex> -> tensor<1x16xf16>
// CHECK-NEXT:      %[[X_TILE:.+]] = ktdp.construct_access_tile %x_view
// CHECK-NEXT:      %[[X:.+]] = ktdp.load %[[X_TILE]]
// CHECK-NEXT:      %[[NEXT:.+]] = arith.addf %[[A]], %[[X]] : tensor<1x16xf16>
// CHECK-NEXT:      ktdp.store %[[NEXT]], %[[ACC_TILE]]
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    %[[PARTIAL:.+]] = ktdp.load %[[ACC_TILE]] : <1x16xindex> -> tensor<1x16xf16>
// The sum, stored to its buffer right after it is made, and to S:
// CHECK:         %[[S:.+]] = linalg.reduce { arith.addf } ins(%[[PARTIAL]] : tensor<1x16xf16>)
// CHECK-NEXT:    ktdp.store %[[S]], %[[SUM_TILE]] : tensor<1xf16>, <1xindex>
// CHECK-NEXT:    %[[S_TILE:.+]] = ktdp.construct_access_tile %s_view[%row]
// CHECK-NEXT:    ktdp.store %[[S]], %[[S_TILE]]
// The division's loop loads the sum and makes the extract and the splat again:
// CHECK:         scf.for %{{.+}} = %c0 to %n step %c16 {
// CHECK:           %[[X2:.+]] = ktdp.load %{{.+}} : <1x16xindex> -> tensor<1x16xf16>
// CHECK-NEXT:      %[[LOADED:.+]] = ktdp.load %[[SUM_TILE]] : <1xindex> -> tensor<1xf16>
// CHECK-NEXT:      %[[SCALAR:.+]] = tensor.extract %[[LOADED]][%c0] : tensor<1xf16>
// CHECK-NEXT:      %[[BLOCK:.+]] = tensor.splat %[[SCALAR]] : tensor<1x16xf16>
// CHECK-NEXT:      %[[Y:.+]] = arith.divf %[[X2]], %[[BLOCK]] : tensor<1x16xf16>
// CHECK-NEXT:      ktdp.store %[[Y]], %{{.+}} : tensor<1x16xf16>, <1x16xindex>
// CHECK-NEXT:    }
// CHECK-NOT:     loop_type
// CHECK-NEXT:    return

// LINE4:         memref.alloc() : memref<1x16xf16, "SPM">
// LINE4-NEXT:    ktdp.construct_access_tile
// LINE4-NEXT:    memref.alloc() : memref<1xf16, "SPM">
