// A softmax row needs more than one generic after fusion: the maximum, then the
// sum of exp(x - max), then exp(x - max) / sum. The three, and the fills seeding
// the two reductions, run in order in one compute stage on the whole row (the
// reduction dimension is not tiled), reading the row once. The maximum and the sum
// reach the later generics as tensors read at position 0 of the row's dimension.

// RUN: ktc-opt %s --arch toy -p materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline | filecheck %s

module {
  module @local_schedule_0 {
    func.func @local_schedule_0(%output_ptr: index, %input_ptr: index, %row: index) attributes {grid = [32, 1]} {
      %c0_i32 = arith.constant 0 : index
      %input_view = ktdp.construct_memory_view %input_ptr, sizes: [4096, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>
      } : memref<4096x1024xf16>
      %output_view = ktdp.construct_memory_view %output_ptr, sizes: [4096, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>
      } : memref<4096x1024xf16>
      %input_acc = ktdp.construct_access_tile %input_view[%row, %c0_i32] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<4096x1024xf16> -> !ktdp.access_tile<1x1024xindex>
      %input_row = ktdp.load %input_acc : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %neg_inf = arith.constant 0xFC00 : f16
      %max_init = tensor.splat %neg_inf : tensor<1xf16>
      %reduce_max = linalg.reduce { arith.maxnumf }
        ins(%input_row : tensor<1x1024xf16>)
        outs(%max_init : tensor<1xf16>)
        dimensions = [1]
      %c0 = arith.constant 0 : index
      %max_scalar = tensor.extract %reduce_max[%c0] : tensor<1xf16>
      %max_row = tensor.splat %max_scalar : tensor<1x1024xf16>
      %input_minus_max = arith.subf %input_row, %max_row : tensor<1x1024xf16>
      %numerator = math.exp %input_minus_max : tensor<1x1024xf16>
      %zero = arith.constant 0.0 : f16
      %denominator_init = tensor.splat %zero : tensor<1xf16>
      %reduce_add = linalg.reduce { arith.addf }
        ins(%numerator : tensor<1x1024xf16>)
        outs(%denominator_init : tensor<1xf16>)
        dimensions = [1]
      %denominator_scalar = tensor.extract %reduce_add[%c0] : tensor<1xf16>
      %denominator_row = tensor.splat %denominator_scalar : tensor<1x1024xf16>
      %softmax_output = arith.divf %numerator, %denominator_row : tensor<1x1024xf16>
      %output_acc = ktdp.construct_access_tile %output_view[%row, %c0_i32] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<4096x1024xf16> -> !ktdp.access_tile<1x1024xindex>
      ktdp.store %softmax_output, %output_acc : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
      return
    }
  }
}

// CHECK-DAG:   [[ONE_D:#map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   [[ID:#map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   [[ROW:#map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   [[FIRST:#map[0-9]*]] = affine_map<(d0, d1) -> (0)>
// CHECK:       scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      %[[P:.+]]:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 1024xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 1024xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:           ktdf.data_transfer from %input_acc[%[[I]], 0] size [1, 1024] to %[[P]]#0 size [1, 1024]
// CHECK:           %[[X:.+]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 1024xf16> -> tensor<1x1024xf16>
// CHECK-NEXT:      %[[E0:.+]] = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:      %[[MAX_INIT:.+]] = linalg.generic {indexing_maps = [[[ONE_D]]], iterator_types = ["parallel"]} outs(%[[E0]] : tensor<1xf16>) {
// CHECK-NEXT:      ^bb0(%{{.+}}: f16):
// CHECK-NEXT:        linalg.yield %neg_inf : f16
// CHECK-NEXT:      } -> tensor<1xf16>
// CHECK-NEXT:      %[[MAX:.+]] = linalg.generic {indexing_maps = [[[ID]], [[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<1x1024xf16>) outs(%[[MAX_INIT]] : tensor<1xf16>) {
// CHECK:             arith.maxnumf
// CHECK:           } -> tensor<1xf16>
// CHECK-NEXT:      %[[E1:.+]] = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:      %[[SUM_INIT:.+]] = linalg.generic {indexing_maps = [[[ONE_D]]], iterator_types = ["parallel"]} outs(%[[E1]] : tensor<1xf16>) {
// CHECK:             linalg.yield %zero : f16
// CHECK:           %[[SUM:.+]] = linalg.generic {indexing_maps = [[[ID]], [[FIRST]], [[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[MAX]] : tensor<1x1024xf16>, tensor<1xf16>) outs(%[[SUM_INIT]] : tensor<1xf16>) {
// CHECK-NEXT:      ^bb0(%[[XE:.+]]: f16, %[[ME:.+]]: f16, %[[ACC:.+]]: f16):
// CHECK-NEXT:        %[[D:.+]] = arith.subf %[[XE]], %[[ME]] : f16
// CHECK-NEXT:        %[[EXP:.+]] = math.exp %[[D]] : f16
// CHECK-NEXT:        %[[ADD:.+]] = arith.addf %[[ACC]], %[[EXP]] : f16
// CHECK-NEXT:        linalg.yield %[[ADD]] : f16
// CHECK-NEXT:      } -> tensor<1xf16>
// CHECK-NEXT:      %[[E2:.+]] = tensor.empty() : tensor<1x1024xf16>
// CHECK-NEXT:      %[[OUT:.+]] = linalg.generic {indexing_maps = [[[ID]], [[FIRST]], [[FIRST]], [[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<1x1024xf16>, tensor<1xf16>, tensor<1xf16>) outs(%[[E2]] : tensor<1x1024xf16>) {
// CHECK-NEXT:      ^bb0(%[[XE:.+]]: f16, %[[ME:.+]]: f16, %[[SE:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT:        %[[D:.+]] = arith.subf %[[XE]], %[[ME]] : f16
// CHECK-NEXT:        %[[EXP:.+]] = math.exp %[[D]] : f16
// CHECK-NEXT:        %[[DIV:.+]] = arith.divf %[[EXP]], %[[SE]] : f16
// CHECK-NEXT:        linalg.yield %[[DIV]] : f16
// CHECK-NEXT:      } -> tensor<1x1024xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[OUT]], %[[P]]#1 : tensor<1x1024xf16>, <"SFU" -> "DDR", 1024xf16>
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
// CHECK:           ktdf.data_transfer from %[[P]]#1 size [1, 1024] to %output_acc[%[[I]], 0] size [1, 1024]
// CHECK:       } {loop_type = #ktdf.loop_type<parallel_loop>}
